import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioServer

/// What the MDES part of `bench apple-pay` sets up before the servers start, as the demo does
/// (`DemoMDES`) and an operator would by hand: the mutual-TLS certificates in the bench's
/// directory (`SandboxMDESPKI`: one CA, the listener's certificate, MDES's client certificate),
/// the tenant's MDES key (what `tenants mdes-key` makes, sealed by the same key directory's
/// vault), and the `serve` flags of the listener.
struct MDESBenchmarkSetup: Sendable {
    let tenantID: String
    /// The sandbox's MDES encryptor for the tenant's public key (OAEP-SHA-256, AES-128-GCM).
    let encryptor: MDESPayloadEncryptor
    /// The tenant's key as the listener holds it, to time the payload's decryption alone.
    let issuerKey: MDESIssuerKey
    let tls: ClientTLSIdentity
    /// `--mdes-port 0` and the three files.
    let serveArguments: [String]

    static func prepare(directory: String, keysDirectory: String, handle: any DatabaseHandle, tenantID: String) async throws
        -> MDESBenchmarkSetup
    {
        let pki = try SandboxMDESPKI.generate(now: Date())
        try pki.write(to: directory)
        let file = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        let vault = PANVault(keyring: try KeyDirectory(path: keysDirectory).loadKeyring())
        let keys = MDESKeyService(store: SQLProvisioStore(handle: handle), vault: vault, clock: SystemTimeSource())
        let publicKey = try await AuditContext.$current.withValue(AuditContext(actor: .commandLine)) {
            try await keys.key(tenantID: tenantID, keySize: nil, rotate: false)
        }
        guard let issuerKey = try await keys.liveKeys(tenantID: tenantID).first else {
            throw ProvisioError(.internalError, "The benchmark tenant's MDES key was not stored.")
        }
        return MDESBenchmarkSetup(
            tenantID: tenantID, encryptor: try MDESPayloadEncryptor(publicKeyPEM: publicKey.pem), issuerKey: issuerKey,
            tls: try ClientTLSIdentity(
                certificatePEM: pki.client.certificatePEM, privateKeyPEM: pki.client.privateKeyPEM, serverCAPEM: pki.caPEM),
            serveArguments: [
                "--mdes-port", "0", "--mdes-tls-cert", file("server.pem"), "--mdes-tls-key", file("server-key.pem"),
                "--mdes-client-ca", file("ca.pem"),
            ])
    }

    /// The listener's path for `operation`.
    func path(_ operation: String) -> String { "/mdes/\(tenantID)/issuerServices/1/0/\(operation)" }
}
