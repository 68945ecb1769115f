import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small JSON client for Provisio's API, as an issuer's backend or app would use it.
struct DemoAPI: Sendable {
    struct Reply: Sendable {
        var status: Int
        var body: Data
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
    }

    let baseURL: String

    func get(_ path: String, token: String) async throws -> Reply {
        try await send("GET", path, token: token, body: nil)
    }

    func post(_ path: String, token: String, json: [String: Any]) async throws -> Reply {
        try await send("POST", path, token: token, body: try JSONSerialization.data(withJSONObject: json))
    }

    func put(_ path: String, token: String, json: [String: Any]) async throws -> Reply {
        try await send("PUT", path, token: token, body: try JSONSerialization.data(withJSONObject: json))
    }

    private func send(_ method: String, _ path: String, token: String, body: Data?) async throws -> Reply {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return Reply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }
}
