import Foundation
import HTTPTypes
import ProvisioCore

/// A browser's view of the console for tests: a cookie jar over `RawClient`, forms posted as
/// `application/x-www-form-urlencoded`, redirects not followed (tests read them).
final class ConsoleSession: Sendable {
    let raw: RawClient
    private let jar = Locked([String: String]())

    init(raw: RawClient) {
        self.raw = raw
    }

    var cookies: [String: String] { jar.value }

    func get(_ path: String) async throws -> RawClient.Response {
        try await send(.get, path, body: nil)
    }

    func post(_ path: String, _ form: [(String, String)]) async throws -> RawClient.Response {
        try await send(.post, path, body: Data(Self.encode(form).utf8))
    }

    /// Signs in to the tenant's console through the sign-in page (its CSRF cookie has the
    /// `__Host-` prefix when the server's cookies are Secure).
    func signIn(tenantID: String, email: String, password: String) async throws -> RawClient.Response {
        _ = try await get("/console/sign-in")
        let csrf = cookies["__Host-provisio_console_csrf"] ?? cookies["provisio_console_csrf"] ?? ""
        return try await post(
            "/console/sign-in", [("csrf", csrf), ("tenant", tenantID), ("email", email), ("password", password)])
    }

    /// The CSRF token of the signed-in session's forms, as the pages carry it.
    func csrf() async throws -> String {
        let page = try await get("/console").text
        guard let range = page.range(of: #"name="csrf" value=""#) else { throw TestSetupError("no CSRF field on the page") }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    private func send(_ method: HTTPRequest.Method, _ path: String, body: Data?) async throws -> RawClient.Response {
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        let cookie = jar.value.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        if !cookie.isEmpty { headers["Cookie"] = cookie }
        let response = try await raw.send(method, path, token: nil, body: body, headers: headers)
        for header in response.headers[values: .setCookie] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            jar.withLock { $0[String(pair[0])] = pair[1].isEmpty ? nil : String(pair[1]) }
        }
        return response
    }

    static func encode(_ form: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return form.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }
}
