import Foundation
import ProvisioAPI
import ProvisioCore
import Testing

/// The invariant: after a full run, the PAN is nowhere in the SQLite files, the captured logs
/// (trace level) or any response body — only inside encrypted payloads.
@Suite struct PANNeverInClearTests {
    @Test func fullRunLeavesNoPANInTheDatabaseLogsOrResponses() async throws {
        let pans = ["4111111111111111", "5555555555554444", "378282246310005"]
        let (responses, path, logs) = try await TestServer.run(.sqlite) { server in
            // The raw answers here; every answer of the generated clients is in `server.answers`.
            var bodies: [String] = []
            let (_, apiKey) = try await server.makeTenant()
            let api = server.api(apiKey)
            for (index, pan) in pans.enumerated() {
                let id = try await server.makeCard(apiKey: apiKey, customerRef: "cust_\(index)", pan: pan).id
                _ = try await api.getCard(path: .init(id: id)).ok
                _ = try await api.provisionApplePay(
                    path: .init(id: id), headers: .init(idempotencyKey: "k\(index)"), body: .json(try server.applePayRequest())
                ).ok
                _ = try await api.provisionGooglePay(path: .init(id: id), body: .json(.init())).ok
                var bad = try server.applePayRequest()
                bad.certificates = ProductionChainFixture.certificates
                #expect(try await api.provisionApplePay(path: .init(id: id), body: .json(bad)).status == 422)
                _ = try await api.listProvisioningAttempts(path: .init(id: id)).ok
                let token = try await api.createMobileSession(body: .json(.init(customerRef: "cust_\(index)")))
                    .created.body.json.token
                _ = try await server.api(token).listMobileCards().ok
                _ = try await server.api(token).provisionApplePayFromMobile(
                    path: .init(id: id), body: .json(try server.applePayRequest())
                ).ok
            }
            // Bad input that carries a PAN must not echo it either.
            #expect(
                try await api.createCard(
                    body: .json(
                        .init(
                            customerRef: "x", pan: "4111111111111112", expiryMonth: 12, expiryYear: 2030, cardholderName: "J"))
                ).status == 400)
            // Nor any other text the server stores: key names, webhook and network URLs,
            // customer references of a revocation.
            let keyName = try await api.createAPIKey(body: .json(.init(name: "ops 4111111111111111", scope: .full)))
            #expect(keyName.refused(400, .cardNumberInText), "\(keyName)")
            let hook = try await api.createWebhookEndpoint(
                body: .json(.init(url: "http://127.0.0.1:9/hooks/4111111111111111", events: [._ast_])))
            #expect(hook.refused(400, .cardNumberInText), "\(hook)")
            let network = try await api.setNetworkSettings(
                body: .json(.init(url: "http://127.0.0.1:9/5555555555554444", apiKey: "k")))
            #expect(network.refused(400, .cardNumberInText), "\(network)")
            let revoke = try await api.revokeCustomerMobileSessions(query: .init(customerRef: "4111111111111111"))
            #expect(revoke.refused(400, .cardNumberInText), "\(revoke)")
            // An unknown field cannot be sent typed.
            bodies.append(
                try await server.raw.post(
                    "/v1/cards", token: apiKey, body: ["customer_ref": "x", "pan": "4111111111111111", "bogus": 1] as OpenAPIJSON
                ).text)
            _ = try await server.api().getMetrics().ok
            bodies += server.answers.all.map(\.text)
            #expect(server.answers.all.count > 25, "the answers were recorded")
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
