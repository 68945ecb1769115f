import Foundation

// The raw client's former names, for tests not yet reading generated types (SandboxNetwork/,
// converted separately); nothing else uses them.

typealias APIClient = RawClient

extension TestServer {
    var client: RawClient { raw }
}

extension RawClient {
    func post(_ path: String, token: String? = nil, json: Any, headers: [String: String] = [:]) async throws -> Response {
        try await send(.post, path, token: token, body: try JSONSerialization.data(withJSONObject: json), headers: headers)
    }
}

extension RawClient.Response {
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
}
