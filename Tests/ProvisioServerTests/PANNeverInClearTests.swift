import Foundation
import ProvisioCore
import Testing

/// The invariant: after a full run, the PAN is nowhere in the SQLite files, the captured logs
/// (trace level) or any response body — only inside encrypted payloads.
@Suite struct PANNeverInClearTests {
    @Test func fullRunLeavesNoPANInTheDatabaseLogsOrResponses() async throws {
        let pans = ["4111111111111111", "5555555555554444", "378282246310005"]
        let (responses, path, logs) = try await TestServer.run(.sqlite) { server in
            var bodies: [String] = []
            let (_, apiKey) = try await server.makeTenant()
            for (index, pan) in pans.enumerated() {
                let card = try await server.makeCard(apiKey: apiKey, customerRef: "cust_\(index)", pan: pan)
                bodies.append(String(describing: card))
                let id = card["id"] as! String
                bodies.append(try await server.client.get("/v1/cards/\(id)", token: apiKey).text)
                bodies.append(
                    try await server.client.post(
                        "/v1/cards/\(id)/provisioning/apple-pay", token: apiKey, json: try server.applePayBody(),
                        headers: ["Idempotency-Key": "k\(index)"]
                    ).text)
                bodies.append(
                    try await server.client.post("/v1/cards/\(id)/provisioning/google-pay", token: apiKey, json: [String: Any]())
                        .text)
                var bad = try server.applePayBody()
                bad["certificates"] = ProductionChainFixture.certificates
                bodies.append(
                    try await server.client.post("/v1/cards/\(id)/provisioning/apple-pay", token: apiKey, json: bad).text)
                bodies.append(try await server.client.get("/v1/cards/\(id)/provisioning-attempts", token: apiKey).text)
                let session = try await server.client.post(
                    "/v1/mobile-sessions", token: apiKey, json: ["customer_ref": "cust_\(index)"])
                let token = session.json?["token"] as! String
                bodies.append(try await server.client.get("/v1/mobile/cards", token: token).text)
                bodies.append(
                    try await server.client.post(
                        "/v1/mobile/cards/\(id)/provisioning/apple-pay", token: token, json: try server.applePayBody()
                    ).text)
            }
            // Bad input that carries a PAN must not echo it either.
            bodies.append(
                try await server.client.post(
                    "/v1/cards", token: apiKey,
                    json: [
                        "customer_ref": "x", "pan": "4111111111111112", "expiry_month": 12, "expiry_year": 2030,
                        "cardholder_name": "J",
                    ]
                ).text)
            bodies.append(
                try await server.client.post(
                    "/v1/cards", token: apiKey, json: ["customer_ref": "x", "pan": "4111111111111111", "bogus": 1]
                ).text)
            bodies.append(try await server.client.get("/metrics").text)
            guard case .sqlite(let path) = server.database else { throw TestSetupError("expected SQLite") }
            // Read the files while they still exist (the harness removes them afterwards).
            var files = Data()
            for suffix in ["", "-wal", "-shm"] {
                files.append((try? Data(contentsOf: URL(fileURLWithPath: path + suffix))) ?? Data())
            }
            return (bodies, files, server.logs.text)
        }
        #expect(path.count > 10_000, "the database files were read")
        #expect(logs.count > 100, "the logs were captured")
        for pan in pans + ["4111111111111112"] {
            let digits = Data(pan.utf8)
            #expect(path.range(of: digits) == nil, "PAN \(pan.suffix(4)) in the SQLite files")
            #expect(!logs.contains(pan), "PAN \(pan.suffix(4)) in the logs")
            for body in responses {
                #expect(!body.contains(pan), "PAN \(pan.suffix(4)) in a response: \(body.prefix(200))")
            }
        }
    }
}
