import Crypto
import Foundation
import Hummingbird
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP
import ProvisioSandbox
import ProvisioServer
import _CryptoExtras

/// The MDES half of `provisio demo --network mdes`: the mutual-TLS certificates, the tenant's
/// MDES key (what `tenants mdes-key` makes), Provisio's MDES listener, the issuer's OAuth
/// signing key, Mastercard's encryption key (the sandbox's; its certificate is the issuer's
/// setting), and the sandbox network's MDES line to the listener. What the operator of each
/// side would set up by hand, done once in a temporary directory.
struct DemoMDES: Sendable {
    /// The sandbox network's line to Provisio's MDES listener.
    let link: SandboxMDESIssuerConnection
    /// The issuer's signing key's public half, which the sandbox's MDES verifies against.
    let verifier: SandboxOAuthVerifier
    let consumerKey: String
    let signingKeyPEM: String
    /// Mastercard's key pair: the sandbox opens with it what Provisio encrypts for its certificate.
    let mastercardKey: SandboxMastercardEncryptionKey
    let listener: RunningApplication

    static func start(
        services: ServerServices, tenantID: String, directory: String, logger: Logger, transcript: DemoTranscript
    ) async throws -> DemoMDES {
        let pki = try SandboxMDESPKI.generate(now: Date())
        try pki.write(to: directory)
        let file = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        let tls = try TLSCredentials(
            certificateFile: file("server.pem"), keyFile: file("server-key.pem"), clientCAFile: file("ca.pem"))
        let listener = try await DemoWorld.listen { onListening in
            MDESHTTPApplication.make(
                services: services, host: "127.0.0.1", port: 0, tls: tls, logger: logger, onListening: onListening)
        }
        // The issuer registers this key with Mastercard; MDES wraps every payload's AES key for it.
        let issuerKey = try await AuditContext.$current.withValue(AuditContext(actor: .commandLine)) {
            try await MDESKeyService(
                store: SQLProvisioStore(handle: services.handle), vault: services.vault, clock: services.clock
            )
            .key(tenantID: tenantID, keySize: nil, rotate: false)
        }
        let port = listener.port
        let baseURL = "https://127.0.0.1:\(port)/mdes/\(tenantID)/issuerServices/1/0"
        await transcript.note("Provisio's MDES listener on https://127.0.0.1:\(port) (mutual TLS; certificates in \(directory))")
        let link = try SandboxMDESIssuerConnection(
            endpoint: try MDESIssuerEndpoint(baseURL: baseURL),
            identity: try MDESTLSIdentity(
                certificateChainPEM: pki.client.certificatePEM, privateKeyPEM: pki.client.privateKeyPEM, serverCAPEM: pki.caPEM),
            encryptor: try MDESPayloadEncryptor(publicKeyPEM: issuerKey.pem))
        // The issuer's OAuth key for the Customer Service API: Provisio signs with the private
        // half (sealed in its vault), the sandbox's MDES verifies with the public one.
        let signingKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let consumerKey = "demo-bank-consumer-key"
        return DemoMDES(
            link: link,
            verifier: try SandboxOAuthVerifier(publicKeyPEM: signingKey.publicKey.pemRepresentation, consumerKey: consumerKey),
            consumerKey: consumerKey, signingKeyPEM: signingKey.pemRepresentation,
            mastercardKey: try SandboxMastercardEncryptionKey.generate(now: Date()), listener: listener)
    }
}
