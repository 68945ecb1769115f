import AsyncHTTPClient
import NIOSSL
import ProvisioCore

/// MDES's side of the mutually authenticated TLS the Issuer Outbound API runs over: the client
/// certificate (and its key) MDES presents, and the CA it trusts for the issuer's server
/// certificate. Redirects are never followed.
public struct MDESTLSIdentity: Sendable {
    public let certificateChainPEM: String
    public let privateKeyPEM: String
    public let serverCAPEM: String

    public init(certificateChainPEM: String, privateKeyPEM: String, serverCAPEM: String) throws {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.serverCAPEM = serverCAPEM
        _ = try tlsConfiguration()
    }

    func tlsConfiguration() throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateChainPEM.utf8))
            let roots = try NIOSSLCertificate.fromPEMBytes(Array(serverCAPEM.utf8))
            guard !chain.isEmpty, !roots.isEmpty else { throw ProvisioError(.sandboxMdesKeyInvalid, "No certificate.") }
            tls.certificateChain = chain.map { .certificate($0) }
            tls.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem))
            tls.trustRoots = .certificates(roots)
        } catch {
            throw ProvisioError(
                .sandboxMdesKeyInvalid,
                "The MDES client certificate, its key or the issuer's server CA is not readable PEM.")
        }
        tls.certificateVerification = .fullVerification
        tls.minimumTLSVersion = .tlsv12
        return tls
    }

    func makeHTTPClient() throws -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.tlsConfiguration = try tlsConfiguration()
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }
}
