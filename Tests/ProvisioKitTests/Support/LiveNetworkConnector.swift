#if os(Linux)
    import Foundation
    import HTTPTypes
    import Hummingbird
    import ProvisioCore
    import ProvisioSandbox

    /// The card network's connector API in the Provisio dialect (`network-connector-openapi.yaml`:
    /// `POST /network/v1/tokens/{ref}/lifecycle` and `…/activation`) on loopback, over the sandbox
    /// network, for the server's token changes to reach it. A minimal copy of the sandbox
    /// service's connector (`SandboxConnectorHandler`), which this test target does not link; it
    /// records every call, so a test can see what reached the network (and what did not).
    struct LiveNetworkConnector: Sendable {
        /// One call that reached the network: its path's last part (`lifecycle`, `activation`),
        /// the token and the body's `action` or `method`.
        struct Call: Sendable, Hashable {
            var operation: String
            var networkTokenRef: String
            var word: String
        }

        let server: LoopbackServer
        let apiKey: String
        private let calls: Locked<[Call]>

        var url: String { server.baseURL.absoluteString }
        var received: [Call] { calls.value }

        static func serve(network: SandboxNetworkTokenService) async throws -> LiveNetworkConnector {
            let apiKey = "sbx_key_" + UUID().uuidString.lowercased()
            let calls = Locked<[Call]>([])
            let server = try await LoopbackServer.serve { request in
                guard request.headers[.authorization] == "Bearer \(apiKey)" else {
                    return Self.error(.unauthorized, "invalid_credentials")
                }
                let parts = request.uri.path.split(separator: "/").map(String.init)
                guard request.method == .post, parts.count == 5, parts[0] == "network", parts[1] == "v1", parts[2] == "tokens"
                else { return Self.error(.notFound, "not_found") }
                let (ref, operation) = (parts[3], parts[4])
                let body = try await request.body.collect(upTo: 64 * 1024)
                let json = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
                do {
                    let token: NetworkToken
                    switch operation {
                    case "lifecycle":
                        guard let word = json["action"] as? String, let action = IssuerLifecycleAction(rawValue: word) else {
                            return Self.error(.badRequest, "invalid_parameter")
                        }
                        calls.withLock { $0.append(Call(operation: operation, networkTokenRef: ref, word: word)) }
                        token = try await network.applyIssuerAction(action, networkTokenRef: ref)
                    case "activation":
                        guard let word = json["method"] as? String, ["customer_service", "app_authentication"].contains(word)
                        else { return Self.error(.badRequest, "invalid_parameter") }
                        calls.withLock { $0.append(Call(operation: operation, networkTokenRef: ref, word: word)) }
                        token = try await network.activateByIssuer(networkTokenRef: ref)
                    default:
                        return Self.error(.notFound, "not_found")
                    }
                    return jsonResponse(.ok, try Self.json(token))
                } catch let error as ProvisioError {
                    return Self.error(.conflict, error.code.rawValue)
                }
            }
            return LiveNetworkConnector(server: server, apiKey: apiKey, calls: calls)
        }

        func stop() { server.stop() }

        /// The connector's `Token`, strictly its documented fields.
        static func json(_ token: NetworkToken) throws -> String {
            var object: [String: Any] = [
                "network_token_ref": token.networkTokenRef, "state": token.state.rawValue,
                "decision": token.decision.rawValue, "reasons": token.reasons,
                "activation_methods": token.activationMethods, "token_last4": token.tokenPrimaryAccountNumber.last4,
                "device": token.device.kind == .watch || token.device.kind == .galaxyWatch ? "watch" : "phone",
                "device_account_identifier": token.deviceAccountIdentifier,
                "primary_account_identifier": token.primaryAccountIdentifier,
                "created_at": ISO8601DateFormatter().string(from: token.createdAt),
            ]
            object["issuer_token_id"] = token.issuerTokenID
            object["pass_serial_number"] = token.passSerialNumber
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }

        static func error(_ status: HTTPResponse.Status, _ code: String) -> Response {
            jsonResponse(
                status, #"{"error":{"code":"\#(code)","message":"Refused.","request_id":"req_0123456789abcdef01234567"}}"#)
        }
    }
#endif
