import Foundation
import HTTPTypes
import ProvisioAPI
import ProvisioServer
import Testing

/// Every issuer-backend operation of the document against a key of every scope, over HTTP: a
/// scope that does not cover the operation is 403 `insufficient_scope` before anything runs;
/// one that does never is.
@Suite struct APIKeyScopeTests {
    /// What each limited scope may call, written out (not derived from `permits`).
    static let provisioningOperations: Set<String> = [
        "POST /v1/mobile-sessions", "DELETE /v1/mobile-sessions", "DELETE /v1/mobile-sessions/{id}",
        "POST /v1/provision-tokens", "POST /v1/cards/{id}/provisioning/apple-pay",
        "POST /v1/cards/{id}/provisioning/google-pay", "POST /v1/cards/{id}/provisioning/samsung-pay",
    ]

    static func issuerOperations() throws -> [OpenAPISpec.Operation] {
        try OpenAPISpec.load().operations.filter {
            // Card art is public: no key of any scope is asked for.
            $0.template.hasPrefix("/v1/") && !$0.template.hasPrefix("/v1/mobile/") && !$0.template.hasPrefix("/v1/network/")
                && !$0.template.hasPrefix("/v1/card-art/")
        }
    }

    static func expected(_ scope: APIKeyScope, _ operation: OpenAPISpec.Operation) -> Bool {
        switch scope {
        case .full: true
        case .readOnly: operation.method == "get"
        case .provisioning: provisioningOperations.contains(operation.key)
        }
    }

    @Test func theWrittenOutTableMatchesTheScopes() throws {
        let operations = try Self.issuerOperations()
        #expect(operations.count > 20)
        for operation in operations {
            let method = HTTPRequest.Method(operation.method.uppercased())!
            for scope in APIKeyScope.allCases {
                #expect(
                    scope.permits(method: method, path: operation.template) == Self.expected(scope, operation),
                    "\(scope) \(operation.key)")
            }
        }
        // Every operation the provisioning scope names exists in the document.
        #expect(Self.provisioningOperations.isSubset(of: Set(operations.map(\.key))))
    }

    @Test(arguments: TestEngine.available)
    func everyOperationIsRefusedOrAdmittedByScope(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            let (tenantID, _) = try await server.makeTenant()
            var keys: [APIKeyScope: String] = [:]
            for scope in APIKeyScope.allCases {
                keys[scope] = try await server.services.access.createAPIKey(
                    tenantID: tenantID, name: "\(scope.rawValue) key", scope: scope
                ).secret
            }
            for operation in try Self.issuerOperations() {
                let path = operation.template.replacingOccurrences(of: "{id}", with: "unknown_1")
                let method = HTTPRequest.Method(operation.method.uppercased())!
                let body = [.post, .put, .patch].contains(method) ? Data("{}".utf8) : nil
                for scope in APIKeyScope.allCases {
                    let answer = try await server.raw.send(method, path, token: keys[scope], body: body)
                    if Self.expected(scope, operation) {
                        #expect(answer.refusalCode != "insufficient_scope", "\(scope) \(operation.key): \(answer.text)")
                    } else {
                        #expect(
                            answer.refused(403, .insufficientScope),
                            "\(scope) \(operation.key): \(answer.status) \(answer.text)")
                    }
                }
            }
        }
    }
}
