import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOSSL
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP
import ProvisioSandbox
import Testing
import _CryptoExtras

@testable import ProvisioServer

/// A Provisio server with its MDES listener on loopback over mutual TLS, a tenant with an MDES
/// key and a card, and MDES's side played by the test: requests built as JSON by hand and card
/// data encrypted with swift-crypto (never Provisio's own code).
struct MDESListenerHarness: Sendable {
    static let pan = "5412345678901232"
    /// The fixture vectors' `dataValidUntilTimestamp` is 2030-01-01T00:30Z: the clock starts just before.
    static let start = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01T00:00:00Z
    static let pki = try! MDESTestPKI.make()

    let server: TestServer
    let tenantID: String
    let apiKey: String
    let key: MDESIssuerKey
    let port: Int

    /// Runs `body` with a server on `engine` and its MDES listener.
    static func run(_ engine: TestEngine, _ body: @Sendable (MDESListenerHarness) async throws -> Void) async throws {
        try await TestServer.run(engine, clock: TestClock(start)) { server in
            let (tenantID, apiKey) = try await server.makeTenant()
            _ = try await server.makeCard(apiKey: apiKey, pan: pan)
            let service = MDESKeyService(
                store: SQLProvisioStore(handle: server.services.handle), vault: server.services.vault, clock: server.clock)
            _ = try await service.key(tenantID: tenantID, keySize: 2048, rotate: false)
            let key = try #require(try await service.liveKeys(tenantID: tenantID).first)
            try await withListener(server) { port in
                try await body(
                    MDESListenerHarness(server: server, tenantID: tenantID, apiKey: apiKey, key: key, port: port))
            }
        }
    }

    /// `run` on SQLite, then the database files and every log line, read before they are removed.
    static func runCapturing(_ body: @Sendable @escaping (MDESListenerHarness) async throws -> Void) async throws
        -> (files: Data, logs: String)
    {
        let captured = Locked<(Data, String)>((Data(), ""))
        try await run(.sqlite) { mdes in
            try await body(mdes)
            guard case .sqlite(let path) = mdes.server.database else { throw TestSetupError("expected SQLite") }
            var files = Data()
            for suffix in ["", "-wal", "-shm"] {
                files.append((try? Data(contentsOf: URL(fileURLWithPath: path + suffix))) ?? Data())
            }
            let logs = mdes.server.logs.text
            captured.withLock { $0 = (files, logs) }
        }
        return captured.withLock { $0 }
    }

    /// An MDES listener on the server's services (a second one is another server on the same database).
    static func withListener(_ server: TestServer, _ body: (Int) async throws -> Void) async throws {
        let credentials = try TLSCredentials(
            certificateFile: pki.serverCertificateFile, keyFile: pki.serverKeyFile, clientCAFile: pki.clientCAFile)
        let running = try await start(server, credentials: credentials)
        do {
            try await body(running.port)
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
    }

    /// Starts an MDES listener on the server's services with `credentials`; `stop()` ends it.
    static func start(_ server: TestServer, credentials: TLSCredentials) async throws -> RunningApplication {
        try await RunningApplication.start(logger: server.logs.logger(label: "mdes")) { onListening in
            MDESHTTPApplication.make(
                services: server.services, host: "127.0.0.1", port: 0, tls: credentials,
                logger: server.logs.logger(label: "mdes"), onListening: onListening)
        }
    }

    /// The sandbox's MDES certificates (`SandboxMDESPKI`, as `sandbox serve --network mdes` makes
    /// them) and the listener's credentials from them: the sandbox's client certificate is let in.
    static func sandboxPKI() throws -> (SandboxMDESPKI, TLSCredentials) {
        let directory = NSTemporaryDirectory() + "sandbox-mdes-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The credentials are read here and now: the files can go when this returns.
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pki = try SandboxMDESPKI.generate(now: Date())
        try pki.write(to: directory)
        let file = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        let credentials = try TLSCredentials(
            certificateFile: file("server.pem"), keyFile: file("server-key.pem"), clientCAFile: file("ca.pem"))
        return (pki, credentials)
    }

    // MARK: Requests

    struct Answer: Sendable {
        let status: Int
        let text: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        var errorCode: String? { json["errorCode"] as? String }
        subscript(_ key: String) -> String? { json[key] as? String }
    }

    /// POSTs raw bytes to an operation; nil when the TLS handshake fails.
    static func post(
        port: Int, path: String, bytes: Data, presenting identity: MDESTestPKI.Identity?
    ) async -> Answer? {
        let client = TestClient(
            host: "127.0.0.1", port: port,
            configuration: .init(
                tlsConfiguration: pki.clientTLS(presenting: identity), timeout: .seconds(20), serverName: "localhost"))
        client.connect()
        defer { Task { try? await client.shutdown() } }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        do {
            let response = try await client.execute(
                .init(path, method: .post, headers: headers, body: ByteBuffer(bytes: bytes)))
            return Answer(status: Int(response.status.code), text: response.body.map { String(buffer: $0) } ?? "")
        } catch {
            return nil
        }
    }

    func post(_ operation: String, _ body: [String: Any], tenant: String? = nil, port: Int? = nil) async throws -> Answer {
        try await post(operation, bytes: JSONSerialization.data(withJSONObject: body), tenant: tenant, port: port)
    }

    func post(_ operation: String, bytes: Data, tenant: String? = nil, port: Int? = nil) async throws -> Answer {
        let path = "/mdes/\(tenant ?? tenantID)/issuerServices/1/0/\(operation)"
        guard let answer = await Self.post(port: port ?? self.port, path: path, bytes: bytes, presenting: Self.pki.client) else {
            throw TestSetupError("the MDES listener refused the handshake")
        }
        return answer
    }

    // MARK: MDES's messages

    /// The plaintext MDES encrypts for a decision: the card, valid for 30 minutes.
    func cardPlaintext(
        pan: String = pan, month: String = "12", year: String = "30", validFor: TimeInterval = 1800,
        extra: [String: Any] = [:]
    ) -> [String: Any] {
        var plaintext: [String: Any] = [
            "dataValidUntilTimestamp": Self.timestamp(server.clock.now().addingTimeInterval(validFor)),
            "cardAccountData": ["accountNumber": pan, "expiryMonth": month, "expiryYear": year],
        ]
        plaintext.merge(extra) { $1 }
        return plaintext
    }

    /// AES-256-GCM under a fresh key wrapped with RSA-OAEP-SHA256 for the tenant's key (or `for`).
    func encrypt(_ plaintext: [String: Any], fingerprint: String? = nil, for other: MDESIssuerKey? = nil) throws
        -> [String: Any]
    {
        let key = other ?? self.key
        let data = try JSONSerialization.data(withJSONObject: plaintext)
        let aesKey = SymmetricKey(size: .bits256)
        let iv = AES.GCM.Nonce()
        let aad = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let sealed = try AES.GCM.seal(data, using: aesKey, nonce: iv, authenticating: aad)
        let wrapped = try _RSA.Encryption.PublicKey(derRepresentation: key.publicKeyDER)
            .encrypt(aesKey.withUnsafeBytes { Data($0) }, padding: .PKCS1_OAEP_SHA256)
        return [
            "encryptedData": Self.hex(sealed.ciphertext), "encryptedKey": Self.hex(wrapped),
            "publicKeyFingerprint": fingerprint ?? key.publicKeyFingerprint, "oaepHashingAlgorithm": "SHA256",
            "iv": Self.hex(Data(iv)), "algorithmCipherMode": "GCM", "tag": Self.hex(sealed.tag), "aad": Self.hex(aad),
        ]
    }

    /// An authorizeService request for `reference`, with the wallet's assessment.
    func authorize(
        reference: String, requestID: String = UUID().uuidString, payload: [String: Any]? = nil,
        recommendation: String? = "APPROVED", deviceScore: String = "5", accountScore: String = "5",
        formFactor: String = "PHONE"
    ) throws -> [String: Any] {
        var decisioning: [String: Any] = ["deviceScore": deviceScore, "accountScore": accountScore]
        decisioning["recommendedDecision"] = recommendation
        return [
            "requestId": requestID, "services": ["DIGITIZATION"], "correlationId": "corr-1", "tokenType": "CLOUD",
            "walletId": "103", "tokenRequestorId": "50110030273",
            "fundingAccountInfo": [
                "tokenUniqueReference": reference, "encryptedPayload": try payload ?? encrypt(cardPlaintext()),
            ],
            "deviceInfo": ["formFactor": formFactor, "osName": "IOS"],
            "walletProviderDecisioningInfo": decisioning,
        ]
    }

    func token(_ reference: String) async throws -> TokenRecord? {
        try await server.services.tokens.store.token(networkTokenRef: reference, tenantID: tenantID)
    }

    static func hex(_ data: some DataProtocol) -> String { data.map { String(format: "%02x", $0) }.joined() }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
