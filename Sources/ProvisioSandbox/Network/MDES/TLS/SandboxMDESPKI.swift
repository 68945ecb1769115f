import Crypto
import Foundation
import ProvisioCore
import SwiftASN1
import X509

/// The certificates mutual TLS between MDES and the issuer needs, for the demo and tests: one CA
/// (in real life the issuer trusts Mastercard's CA and Mastercard the issuer's; one CA keeps the
/// sandbox simple), the issuer listener's server certificate for `localhost` and `127.0.0.1`,
/// and the client certificate the sandbox's MDES presents. P-256 keys, valid from `now` for a day.
public struct SandboxMDESPKI: Sendable {
    public struct Identity: Sendable {
        public let certificatePEM: String
        public let privateKeyPEM: String
    }

    public let caPEM: String
    public let server: Identity
    public let client: Identity

    public static func generate(now: Date) throws -> SandboxMDESPKI {
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName {
            OrganizationName("Provisio sandbox")
            CommonName("Sandbox MDES mutual TLS CA")
        }
        let ca = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey), notValidBefore: now.addingTimeInterval(-300),
            notValidAfter: now.addingTimeInterval(86_400), issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
            }, issuerPrivateKey: .init(caKey))

        func leaf(_ name: String, usage: ExtendedKeyUsage.Usage, names: [GeneralName]) throws -> Identity {
            let key = P256.Signing.PrivateKey()
            let subject = try DistinguishedName {
                OrganizationName("Provisio sandbox")
                CommonName(name)
            }
            let certificate = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
                notValidBefore: now.addingTimeInterval(-300), notValidAfter: now.addingTimeInterval(86_400), issuer: caName,
                subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([usage])
                    if !names.isEmpty { SubjectAlternativeNames(names) }
                }, issuerPrivateKey: .init(caKey))
            return Identity(certificatePEM: try certificate.serializeAsPEM().pemString, privateKeyPEM: key.pemRepresentation)
        }

        return SandboxMDESPKI(
            caPEM: try ca.serializeAsPEM().pemString,
            server: try leaf(
                "Issuer MDES listener", usage: .serverAuth,
                names: [.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))]),
            client: try leaf("Mastercard MDES (sandbox)", usage: .clientAuth, names: []))
    }

    /// Writes `ca.pem`, `server.pem`, `server-key.pem`, `client.pem`, `client-key.pem` (keys 0600).
    public func write(to directory: String) throws {
        let files: [(String, String, Bool)] = [
            ("ca.pem", caPEM, false), ("server.pem", server.certificatePEM, false),
            ("server-key.pem", server.privateKeyPEM, true),
            ("client.pem", client.certificatePEM, false), ("client-key.pem", client.privateKeyPEM, true),
        ]
        for (name, text, secret) in files {
            let path = (directory as NSString).appendingPathComponent(name)
            guard
                FileManager.default.createFile(
                    atPath: path, contents: Data(text.utf8), attributes: secret ? [.posixPermissions: 0o600] : nil)
            else {
                throw ProvisioError(.sandboxMdesKeyInvalid, "Could not write \(path).")
            }
        }
    }
}
