import Crypto
import Foundation
import NIOSSL
import ProvisioCrypto
import SwiftASN1
import X509

/// Certificates for the MDES listener's mutual TLS, made in the test: a CA standing for the one
/// Mastercard's client certificates come from, the listener's own certificate, and a client
/// certificate from that CA and one from another CA.
struct MDESTestPKI {
    struct Identity {
        let certificatePEM: String
        let keyPEM: String

        var certificate: NIOSSLCertificate { try! NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem) }
        var key: NIOSSLPrivateKey { try! NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem) }
    }

    let ca: Identity
    let server: Identity
    let client: Identity
    let strangerClient: Identity
    let directory: String

    var serverCertificateFile: String { directory + "/server.pem" }
    var serverKeyFile: String { directory + "/server-key.pem" }
    var clientCAFile: String { directory + "/client-ca.pem" }

    static func make() throws -> MDESTestPKI {
        let ca = try issue(name: "Test MDES CA", isCA: true, issuer: nil)
        let stranger = try issue(name: "Another CA", isCA: true, issuer: nil)
        let directory = NSTemporaryDirectory() + "provisio-mdes-pki-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let pki = MDESTestPKI(
            ca: ca.identity, server: try issue(name: "localhost", isCA: false, issuer: ca).identity,
            client: try issue(name: "MDES client", isCA: false, issuer: ca).identity,
            strangerClient: try issue(name: "Stranger", isCA: false, issuer: stranger).identity, directory: directory)
        try Data(pki.server.certificatePEM.utf8).write(to: URL(fileURLWithPath: pki.serverCertificateFile))
        try KeyDirectory.writeSecret(pki.server.keyPEM, to: pki.serverKeyFile)
        try Data(pki.ca.certificatePEM.utf8).write(to: URL(fileURLWithPath: pki.clientCAFile))
        return pki
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// A client TLS configuration trusting the CA, presenting `identity` (or no certificate).
    func clientTLS(presenting identity: Identity?) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([ca.certificate])
        if let identity {
            tls.certificateChain = [.certificate(identity.certificate)]
            tls.privateKey = .privateKey(identity.key)
        }
        return tls
    }

    private struct Issued {
        let identity: Identity
        let certificate: Certificate
        let key: P256.Signing.PrivateKey
    }

    private static func issue(name: String, isCA: Bool, issuer: Issued?) throws -> Issued {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let now = Date()
        let extensions = try Certificate.Extensions {
            if isCA {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            } else {
                Critical(BasicConstraints.notCertificateAuthority)
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
                try ExtendedKeyUsage([.serverAuth, .clientAuth])
            }
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-300), notValidAfter: now.addingTimeInterval(3600),
            issuer: issuer?.certificate.subject ?? subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: .init(issuer?.key ?? key))
        return Issued(
            identity: Identity(certificatePEM: try certificate.serializeAsPEM().pemString, keyPEM: key.pemRepresentation),
            certificate: certificate, key: key)
    }
}
