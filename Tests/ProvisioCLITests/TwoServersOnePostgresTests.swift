import Crypto
import Foundation
import Logging
import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioServer
import SQLKit
import Testing

/// Two `provisio serve` processes on one PostgreSQL database behave as one service: shared
/// idempotency keys, single-use tokens across processes, one tenant's cards on both.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PROVISIO_TEST_POSTGRES_URL"]?.isEmpty == false))
struct TwoServersOnePostgresTests {
    /// Bounded: it hung once in a full run (no server left, no database connection, every thread
    /// idle), where a CI log then shows only its time running out; a limit names the test.
    @Test(.timeLimit(.minutes(5)))
    func twoProcessesBehaveAsOneService() async throws {
        let adminURL = try PostgresURL(ProcessInfo.processInfo.environment["PROVISIO_TEST_POSTGRES_URL"]!)
        let name = "provisio_two_\(UUID().uuidString.prefix(8).lowercased())"
        let admin = PostgresDatabaseHandle(url: adminURL, maximumConnections: 1, logger: Logger(label: "admin"))
        try await admin.write { try await $0.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
        var url = adminURL
        url.database = name
        let databaseURL = "postgres://\(url.username):\(url.password ?? "")@\(url.host):\(url.port)/\(name)"

        let base = CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(try await CLIRunner.run(["keys", "init", "--dir", base + "/keys"]).status == 0)
        #expect(try await CLIRunner.run(["sandbox", "ca", "--out", base + "/ca"]).status == 0)
        let networkKey = P256.KeyAgreement.PrivateKey()
        try networkKey.publicKey.pemRepresentation.write(toFile: base + "/network.pem", atomically: true, encoding: .utf8)

        let tenant = try await CLIRunner.run(["tenants", "create", "--name", "Two Servers Bank", "--database", databaseURL])
        #expect(tenant.status == 0, "\(tenant.stderr)")
        let tenantJSON = try #require(try JSONSerialization.jsonObject(with: Data(tenant.stdout.utf8)) as? [String: String])
        let apiKey = try #require(tenantJSON["api_key"])
        let tenantID = try #require(tenantJSON["tenant_id"])

        let arguments = [
            "--database", databaseURL, "--keys", base + "/keys", "--trust-anchor", base + "/ca/root.pem",
            "--network-key", base + "/network.pem", "--production", "--allow-test-trust-anchors",
        ]
        let a = try await ServerProcess(arguments: arguments, logFile: base + "/a.log")
        let b = try await ServerProcess(arguments: arguments, logFile: base + "/b.log")
        try await a.waitUntilListening()
        try await b.waitUntilListening()
        #expect(a.port != b.port)
        #expect(try await a.api().getReady().ok.body.json.status == .ready)
        #expect(try await b.api().getReady().ok.body.json.status == .ready)

        // An Idempotency-Key used on A replays on B (raw: the replay is compared byte for byte).
        let card = Components.Schemas.CreateCardRequest(
            customerRef: "cust_1", pan: "4111111111111111", expiryMonth: 12, expiryYear: 2030, cardholderName: "Jane")
        let created = try await a.request("POST", "/v1/cards", token: apiKey, body: card, headers: ["Idempotency-Key": "two-1"])
        #expect(created.status == 201)
        let replayed = try await b.request("POST", "/v1/cards", token: apiKey, body: card, headers: ["Idempotency-Key": "two-1"])
        #expect(replayed.status == 201 && replayed.headers["idempotent-replayed"] == "true" && replayed.body == created.body)
        let id = try created.decode(Components.Schemas.Card.self).id
        #expect(try await b.api(apiKey).getCard(path: .init(id: id)).ok.body.json.id == id)

        // Concurrent duplicates spread over both processes still run once.
        let cardJSON = try ServerEndpoint.encode(card)
        let endpoints = [a.endpoint, b.endpoint]
        let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
            for index in 0..<8 {
                let server = endpoints[index % 2]
                group.addTask {
                    try await server.request(
                        "POST", "/v1/cards", token: apiKey, body: cardJSON, headers: ["Idempotency-Key": "two-2"]
                    ).body
                }
            }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(Set(bodies).count == 1)
        let list = try await a.api(apiKey).listCards(query: .init(customerRef: "cust_1")).ok.body.json
        #expect(list.data.count == 2)

        // A provision token made on A works once, on B; a replay on A is refused.
        let token = try await a.api(apiKey).createProvisionToken(body: .json(.init(cardId: id, wallet: .applePay)))
            .created.body.json.provisionToken
        let chain = try JSONDecoder().decode(
            SandboxChain.self, from: Data(contentsOf: URL(fileURLWithPath: base + "/ca/chain.json")))
        let applePay = Components.Schemas.ApplePayRequest(
            certificates: chain.certificates, nonce: "0a0b0c0d", nonceSignature: "3045")
        let first = try await b.api(token).provisionApplePayFromMobile(path: .init(id: id), body: .json(applePay)).ok.body.json
        let again = try await a.api(token).provisionApplePayFromMobile(path: .init(id: id), body: .json(applePay))
        guard case .conflict = again else {
            Issue.record("a spent provision token was not refused with 409: \(again)")
            return
        }

        // What B sealed opens with the sandbox leaf key.
        let leafKey = try P256.KeyAgreement.PrivateKey(
            pemRepresentation: String(contentsOfFile: base + "/ca/leaf-key.pem", encoding: .utf8))
        let payload = try ECCV2Opener(privateKey: leafKey).open(
            encryptedPassData: try #require(Data(base64Encoded: first.encryptedPassData)),
            ephemeralPublicKey: try #require(first.ephemeralPublicKey.flatMap { Data(base64Encoded: $0) }))
        #expect(try ApplePassPayload(jsonData: payload).primaryAccountNumber.unmaskedDigits == "4111111111111111")

        // Attempts recorded by B are visible through A.
        let attempts = try await a.api(apiKey).listProvisioningAttempts(path: .init(id: id)).ok.body.json
        #expect(attempts.data.count == 1)

        // A key made on A works on B; revoked on A, B refuses it on its next request, and a key
        // revoked at the command line is refused by both.
        let second = try await a.api(apiKey).createAPIKey(body: .json(.init(name: "support tool", scope: .readOnly)))
            .created.body.json
        #expect(try await b.api(second.key).listCards(query: .init(customerRef: "cust_1")).ok.body.json.data.count == 2)
        _ = try await a.api(apiKey).revokeAPIKey(path: .init(id: second.id)).ok
        let refusedOnB = try await b.endpoint.request("GET", "/v1/cards?customer_ref=cust_1", token: second.key, body: nil)
        #expect(refusedOnB.status == 401 && refusedOnB.errorCode == .apiKeyRevoked, "\(refusedOnB.status)")
        let third = try await b.api(apiKey).createAPIKey(body: .json(.init(name: "batch", scope: .full))).created.body.json
        let revoke = try await CLIRunner.run(
            ["api-keys", "revoke", "--tenant-id", tenantID, "--database", databaseURL, third.id])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        for server in [a, b] {
            let refused = try await server.endpoint.request("GET", "/v1/cards?customer_ref=cust_1", token: third.key, body: nil)
            #expect(refused.status == 401 && refused.errorCode == .apiKeyRevoked, "\(refused.status)")
        }

        // Graceful shutdown on SIGTERM.
        #expect(await a.stop() == 0)
        #expect(await b.stop() == 0)
        await admin.shutdown()
        let cleanup = PostgresDatabaseHandle(url: adminURL, maximumConnections: 1, logger: Logger(label: "admin"))
        try? await cleanup.write { try await $0.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run() }
        await cleanup.shutdown()
    }

    /// `provisio sandbox ca`'s chain.json.
    private struct SandboxChain: Decodable {
        let certificates: [String]
    }
}
