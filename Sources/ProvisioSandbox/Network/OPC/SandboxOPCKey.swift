import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto

/// The card network's key for opaque payment cards (OPCs): what an issuer encrypts the card to
/// when it pushes it into Google Wallet or Samsung Wallet, and only the network (the TSP) can
/// open. The wallet carries the OPC without reading it (docs/android-wallets.md §3, §6).
///
/// The format is Provisio's own, documented construction (no network publishes its own; §7):
/// a compact JWE, ECDH-ES + A256GCM to this P-256 key, around Provisio's card JSON. The private
/// half opens it with `JWEDecrypter`; the public half is what Provisio's server is given
/// (`provisio serve --network-key`).
public struct SandboxOPCKey: Sendable {
    /// The files `provisio sandbox serve` keeps it in (its `--ca-dir`), so the public key given
    /// to Provisio stays good across restarts.
    public static let privateKeyFile = "network-opc-key.pem"
    public static let publicKeyFile = "network-opc-public-key.pem"

    public let privateKey: P256.KeyAgreement.PrivateKey

    public init(privateKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey()) {
        self.privateKey = privateKey
    }

    public var publicKey: P256.KeyAgreement.PublicKey { privateKey.publicKey }

    /// Opens an OPC and reads its card. A JWE this key cannot open (not a JWE, another key's,
    /// tampered) is `sandbox_opc_unreadable`; one that opens but does not hold Provisio's card
    /// JSON is `sandbox_opc_invalid`. Neither message repeats the OPC.
    public func open(_ opaquePaymentCard: String) throws -> TSPOpaquePaymentCard {
        let opened: JWEDecrypted
        do {
            opened = try JWEDecrypter(privateKey: privateKey).decrypt(opaquePaymentCard)
        } catch let error as ProvisioError {
            throw ProvisioError(
                .sandboxOpcUnreadable,
                "The network cannot open this opaque payment card (\(error.code.rawValue)): it is not a JWE to the "
                    + "network's key, or it was changed.")
        }
        return try TSPOpaquePaymentCard(json: opened.plaintext)
    }

    /// The key in `directory` when its private file is there, else a fresh one written there
    /// (the private key 0600, the public key beside it); `generated` says which.
    public static func loadOrGenerate(in directory: String) throws -> (key: SandboxOPCKey, generated: Bool) {
        let path = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        if let pem = FileManager.default.contents(atPath: path(privateKeyFile)) {
            guard let key = try? P256.KeyAgreement.PrivateKey(pemRepresentation: String(decoding: pem, as: UTF8.self)) else {
                throw ProvisioError(.sandboxOpcKeyInvalid, "\(path(privateKeyFile)) is not a P-256 private key in PEM.")
            }
            let opcKey = SandboxOPCKey(privateKey: key)
            // The public file is derived: rewrite it if it went missing.
            if !FileManager.default.fileExists(atPath: path(publicKeyFile)) {
                try write(opcKey.publicKey.pemRepresentation, to: path(publicKeyFile), secret: false)
            }
            return (opcKey, false)
        }
        let opcKey = SandboxOPCKey()
        try write(opcKey.privateKey.pemRepresentation, to: path(privateKeyFile), secret: true)
        try write(opcKey.publicKey.pemRepresentation, to: path(publicKeyFile), secret: false)
        return (opcKey, true)
    }

    private static func write(_ text: String, to path: String, secret: Bool) throws {
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(text.utf8), attributes: secret ? [.posixPermissions: 0o600] : nil)
        else { throw ProvisioError(.sandboxOpcKeyInvalid, "Could not write \(path).") }
    }
}
