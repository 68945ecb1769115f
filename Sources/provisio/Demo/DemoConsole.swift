import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ProvisioCore

/// The support console as a browser sees it, for the demo: one operator's cookies, forms
/// posted as a browser posts them, redirects read rather than followed.
final class DemoConsole: Sendable {
    /// Where the console is and who may sign in (made by the embedded world).
    struct Access: Sendable {
        var url: String
        var tenantID: String
        var email: String
        var password: String
    }

    struct Page: Sendable {
        var status: Int
        var location: String?
        var html: String
    }

    let access: Access
    private let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
    private let cookies = Locked([String: String]())

    init(access: Access) {
        self.access = access
    }

    func shutdown() async {
        try? await client.shutdown()
    }

    func get(_ path: String) async throws -> Page {
        try await send(.GET, path, form: nil)
    }

    func post(_ path: String, _ form: [(String, String)]) async throws -> Page {
        try await send(.POST, path, form: form)
    }

    /// Signs in through the sign-in form; the page after it.
    func signIn() async throws -> Page {
        _ = try await get("/console/sign-in")
        return try await post(
            "/console/sign-in",
            [
                ("csrf", cookies.value["provisio_console_csrf"] ?? ""), ("tenant", access.tenantID), ("email", access.email),
                ("password", access.password),
            ])
    }

    /// The CSRF token the page's forms carry.
    static func csrf(in page: Page) -> String? {
        guard let range = page.html.range(of: #"name="csrf" value=""#) else { return nil }
        return String(page.html[range.upperBound...].prefix { $0 != "\"" })
    }

    private func send(_ method: HTTPMethod, _ path: String, form: [(String, String)]?) async throws -> Page {
        var request = HTTPClientRequest(url: access.url + path)
        request.method = method
        let jar = cookies.value
        if !jar.isEmpty {
            request.headers.add(name: "Cookie", value: jar.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        if let form {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
                .joined(separator: "&")
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: body))
        }
        // As long as the demo's API calls wait: signing in is a bcrypt hash at cost 12 on a
        // low-priority thread, which a machine busy with builds can stretch past 10 s.
        let response = try await client.execute(request, timeout: .seconds(30))
        for header in response.headers["Set-Cookie"] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            cookies.withLock { $0[String(pair[0])] = pair[1].isEmpty ? nil : String(pair[1]) }
        }
        let body = try await response.body.collect(upTo: 1 << 20)
        return Page(
            status: Int(response.status.code), location: response.headers.first(name: "Location"), html: String(buffer: body))
    }
}
