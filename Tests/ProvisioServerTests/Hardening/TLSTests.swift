import Crypto
import Foundation
import HummingbirdTesting
import Logging
import NIOSSL
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP
import SwiftASN1
import Testing
import X509

@testable import ProvisioServer

/// `serve --tls-cert --tls-key`: HTTPS with the operator's certificate, a renewed certificate
/// picked up by `reload()` (what SIGHUP calls) without a restart, a bad renewal refused while
/// the old certificate stays in use, and production refusing plain HTTP off loopback.
@Suite struct TLSTests {
    struct Identity {
        let certificatePEM: String
        let keyPEM: String
        let certificate: NIOSSLCertificate
    }

    /// A self-signed P-256 certificate for localhost, as an operator's CA would issue one.
    static func makeIdentity(name: String) throws -> Identity {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-60), notValidAfter: now.addingTimeInterval(3600), issuer: subject,
            subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            }, issuerPrivateKey: .init(key))
        let pem = try certificate.serializeAsPEM().pemString
        return Identity(
            certificatePEM: pem, keyPEM: key.pemRepresentation,
            certificate: try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem))
    }

    static func write(_ identity: Identity, to directory: String) throws {
        try Data(identity.certificatePEM.utf8).write(to: URL(fileURLWithPath: directory + "/cert.pem"))
        let keyPath = directory + "/key.pem"
        try? FileManager.default.removeItem(atPath: keyPath)
        try KeyDirectory.writeSecret(identity.keyPEM, to: keyPath)
    }

    /// GET /health over TLS trusting only `root`; the status, or nil when the handshake fails.
    static func health(port: Int, trusting root: NIOSSLCertificate) async -> Int? {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([root])
        let client = TestClient(
            host: "127.0.0.1", port: port,
            configuration: .init(tlsConfiguration: tls, timeout: .seconds(10), serverName: "localhost"))
        client.connect()
        defer { Task { try? await client.shutdown() } }
        do {
            return Int(try await client.execute(.init("/health", method: .get)).status.code)
        } catch {
            return nil
        }
    }

    @Test func servesHTTPSAndReloadsARenewedCertificate() async throws {
        let directory = NSTemporaryDirectory() + "provisio-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Self.makeIdentity(name: "first")
        try Self.write(first, to: directory)
        let credentials = try TLSCredentials(certificateFile: directory + "/cert.pem", keyFile: directory + "/key.pem")

        try await TestDatabase.with(.sqlite) { database in
            let services = ServerServices(
                handle: database.handle, keys: .generate(), chainValidator: CachingChainValidator(validator: .production()),
                networkKey: P256.KeyAgreement.PrivateKey().publicKey, networkKeyID: "n", clock: SystemTimeSource())
            var logger = Logger(label: "tls")
            logger.logLevel = .error
            let running = try await RunningApplication.start(logger: logger) { onListening in
                ProvisioHTTPApplication.make(
                    services: services, host: "127.0.0.1", port: 0, tls: credentials, logger: logger,
                    onListening: onListening)
            }
            // On a failure, stopped in the background (a second stop changes nothing).
            defer { Task { await running.stop() } }
            let port = running.port

            #expect(await Self.health(port: port, trusting: first.certificate) == 200)
            // Plain HTTP on the TLS port gets no answer.
            let plain = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(3)))
            plain.connect()
            #expect((try? await plain.execute(.init("/health", method: .get))) == nil)
            try? await plain.shutdown()

            // A renewed certificate: new connections get it after reload; the old one is gone.
            let second = try Self.makeIdentity(name: "second")
            try Self.write(second, to: directory)
            try credentials.reload()
            #expect(await Self.health(port: port, trusting: second.certificate) == 200)
            #expect(await Self.health(port: port, trusting: first.certificate) == nil)

            // A broken renewal is refused and the certificate in use stays.
            try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: directory + "/cert.pem"))
            let error = #expect(throws: ProvisioError.self) { try credentials.reload() }
            #expect(error?.code == .tlsInvalid)
            #expect(await Self.health(port: port, trusting: second.certificate) == 200)
            await running.stop()
        }
    }

    @Test func aKeyReadableByOthersOrNotMatchingIsRefused() throws {
        let directory = NSTemporaryDirectory() + "provisio-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let identity = try Self.makeIdentity(name: "x")
        try Self.write(identity, to: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: directory + "/key.pem")
        let open = #expect(throws: ProvisioError.self) {
            try TLSCredentials(certificateFile: directory + "/cert.pem", keyFile: directory + "/key.pem")
        }
        #expect(open?.code == .keysInsecurePermissions)

        let other = try Self.makeIdentity(name: "y")
        try FileManager.default.removeItem(atPath: directory + "/key.pem")
        try KeyDirectory.writeSecret(other.keyPEM, to: directory + "/key.pem")
        let mismatch = #expect(throws: ProvisioError.self) {
            try TLSCredentials(certificateFile: directory + "/cert.pem", keyFile: directory + "/key.pem")
        }
        #expect(mismatch?.code == .tlsInvalid)
    }

    @Test func productionRefusesPlainHTTPOffLoopback() throws {
        var configuration = ServerConfiguration()
        configuration.production = true
        configuration.host = "0.0.0.0"
        let refused = #expect(throws: ProvisioError.self) { try configuration.validateTransport() }
        #expect(refused?.code == .tlsRequired)
        configuration.behindTLSProxy = true
        try configuration.validateTransport()
        configuration.behindTLSProxy = false
        configuration.tlsCertificateFile = "/etc/cert.pem"
        #expect(throws: ProvisioError.self) { try configuration.validateTransport() }  // the key is missing
        configuration.tlsKeyFile = "/etc/key.pem"
        try configuration.validateTransport()
        var development = ServerConfiguration()
        development.host = "0.0.0.0"
        let developmentRefused = #expect(throws: ProvisioError.self) { try development.validateTransport() }
        #expect(developmentRefused?.code == .developmentListenRefused)
        development.allowDevelopmentNetwork = true
        try development.validateTransport()
        var loopback = ServerConfiguration()
        loopback.production = true
        try loopback.validateTransport()
        var environment = ServerConfiguration()
        try environment.apply(environment: [
            "PROVISIO_TLS_CERT": "/c.pem", "PROVISIO_TLS_KEY": "/k.pem", "PROVISIO_BEHIND_TLS_PROXY": "true",
            "PROVISIO_OUTBOUND_ALLOW": "10.0.0.0/8,fd00::/8", "PROVISIO_IDEMPOTENCY_LEASE_SECONDS": "5",
        ])
        #expect(environment.tlsCertificateFile == "/c.pem" && environment.tlsKeyFile == "/k.pem" && environment.behindTLSProxy)
        #expect(environment.outboundAllowList.count == 2 && environment.idempotencyLease == .seconds(5))
        var zeroLease = ServerConfiguration()
        #expect(throws: ProvisioError.self) {
            try zeroLease.apply(environment: ["PROVISIO_IDEMPOTENCY_LEASE_SECONDS": "0"])
        }
    }

    /// Production trusts Apple's root only unless told, and refuses a PostgreSQL off loopback
    /// without TLS unless told. Before, `--trust-anchor` was taken silently and plain PostgreSQL
    /// only warned.
    @Test func productionIsStrictAboutAnchorsAndTheDatabase() throws {
        var anchors = ServerConfiguration()
        anchors.production = true
        anchors.extraTrustAnchorFiles = ["/etc/sandbox-root.pem"]
        let refused = #expect(throws: ProvisioError.self) { try anchors.validateTransport() }
        #expect(refused?.code == .testTrustAnchorsRefused)
        anchors.allowTestTrustAnchors = true
        try anchors.validateTransport()
        var development = ServerConfiguration()
        development.extraTrustAnchorFiles = ["/etc/sandbox-root.pem"]
        try development.validateTransport()

        var remote = ServerConfiguration()
        remote.production = true
        remote.database = try DatabaseLocation("postgres://provisio:pw@db.internal:5432/provisio")
        let plaintext = #expect(throws: ProvisioError.self) { try remote.validateTransport() }
        #expect(plaintext?.code == .databaseTLSRequired)
        remote.allowPlaintextDatabase = true
        try remote.validateTransport()
        remote.allowPlaintextDatabase = false
        remote.database = try DatabaseLocation("postgres://provisio:pw@db.internal:5432/provisio?sslmode=require")
        try remote.validateTransport()
        remote.database = try DatabaseLocation("postgres://provisio:pw@127.0.0.1:5432/provisio")
        try remote.validateTransport()

        var environment = ServerConfiguration()
        try environment.apply(environment: [
            "PROVISIO_ALLOW_TEST_TRUST_ANCHORS": "true", "PROVISIO_ALLOW_PLAINTEXT_DATABASE": "true",
            "PROVISIO_ALLOW_DEVELOPMENT_NETWORK": "true",
        ])
        #expect(environment.allowTestTrustAnchors && environment.allowPlaintextDatabase && environment.allowDevelopmentNetwork)
    }
}
