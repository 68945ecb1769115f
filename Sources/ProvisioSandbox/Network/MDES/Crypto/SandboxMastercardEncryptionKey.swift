import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto
import X509
import _CryptoExtras

/// Mastercard's encryption key pair, as the sandbox's MDES plays Mastercard: the issuer encrypts
/// a reissued card's details for it (`EncryptedAccountInformation` of `/v2/token/update`) and
/// the sandbox opens them with the private half. Its certificate is what the issuer sets as
/// `mastercard_encryption_certificate_pem`, as Mastercard hands it over at onboarding. RSA 2048
/// (what Mastercard issues), self-signed, valid for a year from when it was made.
///
/// The private half opens payloads with Provisio's `MDESPayloadDecrypter`, while Provisio
/// encrypts with `MDESPayloadEncryptor`: each direction of a test runs two pieces of code
/// written apart, as in the Issuer Outbound direction.
public struct SandboxMastercardEncryptionKey: Sendable {
    /// The files `provisio sandbox serve --network mdes` keeps it in (its `--ca-dir`), so that
    /// the certificate given to Provisio stays good across restarts.
    public static let certificateFile = "mdes-mastercard-encryption.pem"
    public static let privateKeyFile = "mdes-mastercard-encryption-key.pem"

    /// The key pair; "issuer" in its type's name is the role Provisio usually gives it.
    public let key: MDESIssuerKey
    /// The certificate of `key`'s public half, PEM.
    public let certificatePEM: String

    /// A fresh key and its certificate.
    public static func generate(now: Date) throws -> SandboxMastercardEncryptionKey {
        let key = try MDESIssuerKey.generate(keySizeInBits: 2048)
        do {
            let signing = try _RSA.Signing.PrivateKey(pemRepresentation: try key.privateKeyPEM)
            let name = try DistinguishedName {
                OrganizationName("Provisio sandbox")
                CommonName("Mastercard MDES encryption (sandbox)")
            }
            let certificate = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(signing.publicKey),
                notValidBefore: now.addingTimeInterval(-300), notValidAfter: now.addingTimeInterval(365 * 86_400),
                issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(keyEncipherment: true))
                }, issuerPrivateKey: .init(signing))
            return SandboxMastercardEncryptionKey(key: key, certificatePEM: try certificate.serializeAsPEM().pemString)
        } catch {
            throw ProvisioError(.sandboxMdesKeyInvalid, "Could not make the sandbox's Mastercard encryption certificate.")
        }
    }

    /// A key pair written before: the certificate must hold the key's public half.
    public init(certificatePEM: String, privateKeyPEM: String) throws {
        let key = try MDESIssuerKey(privateKeyPEM: privateKeyPEM)
        guard let certificate = try? MastercardEncryptionCertificate(pem: certificatePEM),
            certificate.publicKeyFingerprint == key.publicKeyFingerprint
        else {
            throw ProvisioError(
                .sandboxMdesKeyInvalid, "The sandbox's Mastercard encryption certificate does not hold its key's public half.")
        }
        self.init(key: key, certificatePEM: certificatePEM)
    }

    private init(key: MDESIssuerKey, certificatePEM: String) {
        self.key = key
        self.certificatePEM = certificatePEM
    }

    /// The pair in `directory` when both files are there, else a fresh one written there (the
    /// private key 0600); `generated` says which.
    public static func loadOrGenerate(in directory: String, now: Date) throws
        -> (key: SandboxMastercardEncryptionKey, generated: Bool)
    {
        let path = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        if let certificate = FileManager.default.contents(atPath: path(certificateFile)),
            let privateKey = FileManager.default.contents(atPath: path(privateKeyFile))
        {
            let pair = try SandboxMastercardEncryptionKey(
                certificatePEM: String(decoding: certificate, as: UTF8.self),
                privateKeyPEM: String(decoding: privateKey, as: UTF8.self))
            return (pair, false)
        }
        let pair = try generate(now: now)
        let files: [(String, String, Bool)] = [
            (certificateFile, pair.certificatePEM, false), (privateKeyFile, try pair.key.privateKeyPEM, true),
        ]
        for (name, text, secret) in files {
            guard
                FileManager.default.createFile(
                    atPath: path(name), contents: Data(text.utf8), attributes: secret ? [.posixPermissions: 0o600] : nil)
            else { throw ProvisioError(.sandboxMdesKeyInvalid, "Could not write \(path(name)).") }
        }
        return (pair, true)
    }

    /// What opens `EncryptedAccountInformation`.
    public func decrypter() throws -> MDESPayloadDecrypter { try MDESPayloadDecrypter(keys: [key]) }
}
