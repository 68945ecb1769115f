import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioServer
import SQLKit
import Testing

/// Two `provisio serve` processes on one PostgreSQL database behave as one service: shared
/// idempotency keys, single-use tokens across processes, one tenant's cards on both.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PROVISIO_TEST_POSTGRES_URL"]?.isEmpty == false))
struct TwoServersOnePostgresTests {
    @Test func twoProcessesBehaveAsOneService() async throws {
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
        let apiKey = try #require(
            (try JSONSerialization.jsonObject(with: Data(tenant.stdout.utf8)) as? [String: String])?["api_key"])

        let arguments = [
            "--database", databaseURL, "--keys", base + "/keys", "--trust-anchor", base + "/ca/root.pem",
            "--network-key", base + "/network.pem", "--production",
        ]
        let a = try ServerProcess(arguments: arguments, logFile: base + "/a.log")
        let b = try ServerProcess(arguments: arguments, logFile: base + "/b.log")
        defer {
            if a.process.isRunning { _ = a.stop() }
            if b.process.isRunning { _ = b.stop() }
        }
        try await a.waitUntilListening()
        try await b.waitUntilListening()
        #expect(a.port != b.port)
        #expect(try await a.request("GET", "/ready").status == 200)
        #expect(try await b.request("GET", "/ready").status == 200)

        // An Idempotency-Key used on A replays on B.
        let card: [String: Any] = [
            "customer_ref": "cust_1", "pan": "4111111111111111", "expiry_month": 12, "expiry_year": 2030,
            "cardholder_name": "Jane",
        ]
        let created = try await a.request("POST", "/v1/cards", token: apiKey, json: card, headers: ["Idempotency-Key": "two-1"])
        #expect(created.status == 201)
        let replayed = try await b.request("POST", "/v1/cards", token: apiKey, json: card, headers: ["Idempotency-Key": "two-1"])
        #expect(replayed.status == 201 && replayed.headers["idempotent-replayed"] == "true" && replayed.body == created.body)
        let id = try #require(created.json?["id"] as? String)
        #expect(try await b.request("GET", "/v1/cards/\(id)", token: apiKey).json?["id"] as? String == id)

        // Concurrent duplicates spread over both processes still run once.
        let cardJSON = try JSONSerialization.data(withJSONObject: card)
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
        let list = try await a.request("GET", "/v1/cards?customer_ref=cust_1", token: apiKey)
        #expect((list.json?["data"] as? [Any])?.count == 2)

        // A provision token made on A works once, on B; a replay on A is refused.
        let token = try #require(
            try await a.request("POST", "/v1/provision-tokens", token: apiKey, json: ["card_id": id, "wallet": "apple_pay"])
                .json?["provision_token"] as? String)
        let chain =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: base + "/ca/chain.json")))
            as! [String: Any]
        let applePay: [String: Any] = ["certificates": chain["certificates"]!, "nonce": "0a0b0c0d", "nonce_signature": "3045"]
        let first = try await b.request("POST", "/v1/mobile/cards/\(id)/provisioning/apple-pay", token: token, json: applePay)
        #expect(first.status == 200)
        let again = try await a.request("POST", "/v1/mobile/cards/\(id)/provisioning/apple-pay", token: token, json: applePay)
        #expect(again.status == 409)

        // What B sealed opens with the sandbox leaf key.
        let leafKey = try P256.KeyAgreement.PrivateKey(
            pemRepresentation: String(contentsOfFile: base + "/ca/leaf-key.pem", encoding: .utf8))
        let payload = try ECCV2Opener(privateKey: leafKey).open(
            encryptedPassData: Data(base64Encoded: first.json!["encrypted_pass_data"] as! String)!,
            ephemeralPublicKey: Data(base64Encoded: first.json!["ephemeral_public_key"] as! String)!)
        #expect(try ApplePassPayload(jsonData: payload).primaryAccountNumber.unmaskedDigits == "4111111111111111")

        // Attempts recorded by B are visible through A.
        let attempts = try await a.request("GET", "/v1/cards/\(id)/provisioning-attempts", token: apiKey)
        #expect((attempts.json?["data"] as? [Any])?.count == 1)

        // Graceful shutdown on SIGTERM.
        #expect(a.stop() == 0)
        #expect(b.stop() == 0)
        await admin.shutdown()
        let cleanup = PostgresDatabaseHandle(url: adminURL, maximumConnections: 1, logger: Logger(label: "admin"))
        try? await cleanup.write { try await $0.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run() }
        await cleanup.shutdown()
    }
}
