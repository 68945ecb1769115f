import Foundation
import Logging
import NIOSSL
import ProvisioCore
import ProvisioCrypto

/// The server's certificate chain and key, loaded from PEM files and swapped in place on
/// `reload()` (SIGHUP): connections opened afterwards use the new ones, open ones keep theirs.
/// A reload that fails (missing file, bad PEM, key not matching, key readable by others) keeps
/// the certificate in use and says why.
///
/// With `clientCAFile` (the MDES listener) the server asks every client for a certificate and
/// completes the handshake only with one issued by that CA: mutual TLS, checked before a byte of
/// HTTP is read.
public final class TLSCredentials: Sendable {
    public let certificateFile: String
    public let keyFile: String
    public let clientCAFile: String?
    private let context: Locked<NIOSSLContext>

    public init(certificateFile: String, keyFile: String, clientCAFile: String? = nil) throws {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.clientCAFile = clientCAFile
        self.context = Locked(try Self.load(certificateFile: certificateFile, keyFile: keyFile, clientCAFile: clientCAFile))
    }

    /// The context new connections get.
    public var current: NIOSSLContext { context.value }

    /// Loads the files again; on success new connections use them.
    public func reload() throws {
        let fresh = try Self.load(certificateFile: certificateFile, keyFile: keyFile, clientCAFile: clientCAFile)
        context.withLock { $0 = fresh }
    }

    static func load(certificateFile: String, keyFile: String, clientCAFile: String? = nil) throws -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
        } catch {
            throw ProvisioError(.tlsInvalid, "\(certificateFile) is not a PEM certificate chain.")
        }
        guard !chain.isEmpty else { throw ProvisioError(.tlsInvalid, "\(certificateFile) holds no certificate.") }
        // The key is a secret file like the others: refused when group or others may read it.
        let keyBytes = try KeyDirectory.readSecret(keyFile)
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: Array(keyBytes), format: .pem)
        } catch {
            throw ProvisioError(.tlsInvalid, "\(keyFile) is not a PEM private key.")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        if let clientCAFile {
            // NIOSSL's server side with verification on fails the handshake when the client sends
            // no certificate, as well as for one another CA issued.
            let roots: [NIOSSLCertificate]
            do {
                roots = try NIOSSLCertificate.fromPEMFile(clientCAFile)
            } catch {
                throw ProvisioError(.tlsInvalid, "\(clientCAFile) is not a PEM certificate.")
            }
            guard !roots.isEmpty else { throw ProvisioError(.tlsInvalid, "\(clientCAFile) holds no certificate.") }
            configuration.trustRoots = .certificates(roots)
            configuration.certificateVerification = .noHostnameVerification
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw ProvisioError(.tlsInvalid, "The key in \(keyFile) does not fit the certificate in \(certificateFile).")
        }
    }
}
