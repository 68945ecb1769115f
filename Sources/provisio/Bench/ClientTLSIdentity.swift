import NIOSSL
import ProvisioCore

/// The load generator's side of mutual TLS: the client certificate it presents and the CA it
/// checks the server's certificate against (host name not sent; the address is matched against
/// the certificate's IP names). One context for all of a run's connections.
struct ClientTLSIdentity: Sendable {
    let context: NIOSSLContext

    init(certificatePEM: String, privateKeyPEM: String, serverCAPEM: String) throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        do {
            configuration.certificateChain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map {
                .certificate($0)
            }
            configuration.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem))
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(serverCAPEM.utf8)))
            configuration.certificateVerification = .fullVerification
            configuration.minimumTLSVersion = .tlsv12
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw ProvisioError(.internalError, "The benchmark's client certificate, key or CA is not usable: \(error)")
        }
    }

    /// A handler for one connection (no SNI: the bench connects to an IP address).
    func handler() throws -> NIOSSLClientHandler {
        try NIOSSLClientHandler(context: context, serverHostname: nil)
    }
}
