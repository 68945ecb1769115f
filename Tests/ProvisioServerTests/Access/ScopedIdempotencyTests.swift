import Foundation
import ProvisioAPI
import SQLKit
import Testing

@testable import ProvisioServer

/// An `Idempotency-Key` never lets one credential read another's stored answer. Before the fix
/// the scope of a stored answer was the tenant and idempotency ran before the scope check, so a
/// `read_only` or `provisioning` key sending a `full` key's key, path and body got the `full`
/// key's answer replayed: a new full API key, a webhook signing secret, a network key.
@Suite struct ScopedIdempotencyTests {
    /// A secret-bearing POST, made first by a `full` key: its path and body, set up for a tenant.
    struct Operation: Sendable, CustomTestStringConvertible {
        var name: String
        var make: @Sendable (_ server: TestServer, _ tenantID: String, _ apiKey: String) async throws -> (String, Data)
        /// Whether a `provisioning` key may call it (then it runs afresh for that key).
        var provisioningMayCall: Bool

        var testDescription: String { name }

        init(_ name: String, path: String, body: String, provisioningMayCall: Bool = false) {
            self.init(name, provisioningMayCall: provisioningMayCall) { _, _, _ in (path, Data(body.utf8)) }
        }

        init(
            _ name: String, provisioningMayCall: Bool,
            make: @escaping @Sendable (TestServer, String, String) async throws -> (String, Data)
        ) {
            self.name = name
            self.make = make
            self.provisioningMayCall = provisioningMayCall
        }
    }

    static let operations: [Operation] = [
        Operation("create API key", path: "/v1/api-keys", body: #"{"name":"ops","scope":"full"}"#),
        Operation(
            "create webhook endpoint", path: "/v1/webhook-endpoints",
            body: #"{"url":"https://example.com/hook","events":["*"]}"#),
        Operation("rotate webhook secret", provisioningMayCall: false) { server, tenantID, _ in
            let endpoint = try await server.services.webhooks.createEndpoint(
                tenantID: tenantID, url: "https://example.com/rotate", events: ["*"])
            return ("/v1/webhook-endpoints/\(endpoint.endpoint.id)/rotate-secret", Data(#"{"overlap_seconds":60}"#.utf8))
        },
        Operation("create network key", path: "/v1/network-keys", body: "{}"),
        Operation(
            "create mobile session", path: "/v1/mobile-sessions", body: #"{"customer_ref":"cust_1"}"#,
            provisioningMayCall: true),
        Operation("create provision token", provisioningMayCall: true) { server, _, apiKey in
            let card = try await server.makeCard(apiKey: apiKey)
            return ("/v1/provision-tokens", Data(#"{"card_id":"\#(card.id)","wallet":"apple_pay"}"#.utf8))
        },
        Operation("provision Apple Pay", provisioningMayCall: true) { server, _, apiKey in
            let card = try await server.makeCard(apiKey: apiKey)
            return ("/v1/cards/\(card.id)/provisioning/apple-pay", try APIJSON.encode(try server.applePayRequest()))
        },
    ]

    /// The `full` key's answer, then the same key, path and body from each limited scope.
    @Test(arguments: operations)
    func aLimitedKeyNeverReplaysAFullKeysAnswer(_ operation: Operation) async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, fullKey) = try await server.makeTenant()
            let (path, body) = try await operation.make(server, tenantID, fullKey)
            let headers = ["Idempotency-Key": "same-key-for-everyone"]
            let first = try await server.raw.send(.post, path, token: fullKey, body: body, headers: headers)
            #expect((200...201).contains(first.status), "\(first.status) \(first.text)")
            let storedBefore = try await Self.storedKeyCount(server)
            #expect(storedBefore == 1)

            for scope in [APIKeyScope.readOnly, .provisioning] {
                let limited = try await server.services.access.createAPIKey(
                    tenantID: tenantID, name: "\(scope.rawValue) key", scope: scope
                ).secret
                let again = try await server.raw.send(.post, path, token: limited, body: body, headers: headers)
                #expect(again.header("Idempotent-Replayed") == nil, "\(scope): \(again.text)")
                #expect(again.body != first.body, "\(scope) got the full key's answer")
                if scope == .provisioning && operation.provisioningMayCall {
                    // Runs for this key, under its own idempotency scope.
                    #expect((200...201).contains(again.status), "\(scope): \(again.status) \(again.text)")
                } else {
                    #expect(again.refused(403, .insufficientScope), "\(scope): \(again.status) \(again.text)")
                }
            }
            // A refused request stores nothing under its key.
            let expected = storedBefore + (operation.provisioningMayCall ? 1 : 0)
            #expect(try await Self.storedKeyCount(server) == expected)
        }
    }

    /// Two `full` keys of one tenant do not share answers either: the scope is the credential.
    @Test func anotherFullKeyRunsAfresh() async throws {
        try await TestServer.run(.sqlite) { server in
            let (tenantID, fullKey) = try await server.makeTenant()
            let other = try await server.services.access.createAPIKey(tenantID: tenantID, name: "second", scope: .full).secret
            let body = Data(#"{"name":"ops","scope":"read_only"}"#.utf8)
            let headers = ["Idempotency-Key": "k1"]
            let first = try await server.raw.send(.post, "/v1/api-keys", token: fullKey, body: body, headers: headers)
            let replay = try await server.raw.send(.post, "/v1/api-keys", token: fullKey, body: body, headers: headers)
            let second = try await server.raw.send(.post, "/v1/api-keys", token: other, body: body, headers: headers)
            #expect(first.status == 201 && replay.status == 201 && second.status == 201)
            #expect(replay.header("Idempotent-Replayed") == "true" && replay.body == first.body)
            #expect(second.header("Idempotent-Replayed") == nil && second.body != first.body)
        }
    }

    static func storedKeyCount(_ server: TestServer) async throws -> Int {
        try await server.services.handle.read { database in
            try await database.raw("SELECT COUNT(*) AS n FROM idempotency_keys").first()?.decode(column: "n", as: Int.self) ?? -1
        }
    }
}
