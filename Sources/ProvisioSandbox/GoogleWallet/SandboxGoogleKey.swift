import Foundation
import ProvisioCore
import ProvisioOpenPGP

/// The sandbox Google's OpenPGP key pair for Google opaque payment cards: what an issuer
/// encrypts the Google OPC to, and only Google can open (docs/android-wallets.md §2).
///
/// Shaped as Google asks of its partners' keys ([G-PGP]): an RSA primary key that certifies and
/// signs, an RSA encryption subkey, 3072 bits (Google asks 2048 or more), valid one year. Several
/// keys may be held while one rotates out: the newest is the one to hand out, each of them opens.
/// The public half is what a tenant gives Provisio (`PUT /v1/settings/google-pay`,
/// `google_encryption_keys`).
public struct SandboxGoogleKey: Sendable {
    /// The files `provisio sandbox serve` can keep it in (its `--ca-dir`), so the public key given
    /// to Provisio stays good across restarts.
    public static let privateKeyFile = "google-opc-key.asc"
    public static let publicKeyFile = "google-opc-public-key.asc"
    public static let userID = "Sandbox Google Wallet <google-opc@sandbox.provisio.invalid>"
    public static let bits = 3072
    public static let validity: TimeInterval = 365 * 24 * 3600

    /// Newest first.
    public let secretKeys: [OpenPGPSecretKey]

    /// - Parameter secretKeys: newest first; at least one.
    public init(secretKeys: [OpenPGPSecretKey]) throws {
        guard !secretKeys.isEmpty else {
            throw ProvisioError(.sandboxGoogleKeyInvalid, "The sandbox Google needs at least one OpenPGP key.")
        }
        self.secretKeys = secretKeys
    }

    public init(secretKey: OpenPGPSecretKey) {
        self.secretKeys = [secretKey]
    }

    /// A fresh key pair, created at `time` (the clock the wallet judges key validity with).
    public static func generate(at time: Date) throws -> SandboxGoogleKey {
        do throws(OpenPGPError) {
            return SandboxGoogleKey(
                secretKey: try OpenPGPSecretKey.generateRSA(
                    userID: userID, bits: bits, creationTime: time, validity: validity))
        } catch {
            throw ProvisioError(.sandboxGoogleKeyInvalid, "Could not generate the sandbox Google's key (\(error.code.rawValue)).")
        }
    }

    /// The public key to hand out: the newest.
    public var publicKey: OpenPGPPublicKey { secretKeys[0].publicKey }

    /// Every public key, newest first (a tenant may configure several while Google rotates).
    public var publicKeys: [OpenPGPPublicKey] { secretKeys.map(\.publicKey) }

    /// The key in `directory` when its private file is there, else a fresh one written there
    /// (the private key 0600, the public key beside it, both armoured); `generated` says which.
    public static func loadOrGenerate(in directory: String, at time: Date) throws -> (key: SandboxGoogleKey, generated: Bool) {
        let path = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        if let armored = FileManager.default.contents(atPath: path(privateKeyFile)) {
            guard let secret = try? OpenPGPSecretKey(armored) else {
                throw ProvisioError(
                    .sandboxGoogleKeyInvalid, "\(path(privateKeyFile)) is not an unprotected OpenPGP secret key.")
            }
            let key = SandboxGoogleKey(secretKey: secret)
            // The public file is derived: rewrite it if it went missing.
            if !FileManager.default.fileExists(atPath: path(publicKeyFile)) {
                try write(key.publicKey.armored, to: path(publicKeyFile), secret: false)
            }
            return (key, false)
        }
        let key = try generate(at: time)
        try write(key.secretKeys[0].armored, to: path(privateKeyFile), secret: true)
        try write(key.publicKey.armored, to: path(publicKeyFile), secret: false)
        return (key, true)
    }

    private static func write(_ text: String, to path: String, secret: Bool) throws {
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(text.utf8), attributes: secret ? [.posixPermissions: 0o600] : nil)
        else { throw ProvisioError(.sandboxGoogleKeyInvalid, "Could not write \(path).") }
    }
}
