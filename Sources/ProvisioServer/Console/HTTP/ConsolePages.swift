import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import ProvisioCore

/// The console's pages: the Mustache templates in `Resources/Console`, loaded once, rendered
/// into HTML answers with headers that keep the page to itself (no scripts at all, no framing,
/// styles only from the console, nothing cached, no referrer).
struct ConsolePages: Sendable {
    let library: MustacheLibrary
    let stylesheet: String

    init() throws {
        guard let folder = Bundle.module.url(forResource: "Console", withExtension: nil) else {
            throw ProvisioError(.internalError, "The console's templates are missing from the server's bundle.")
        }
        var library = MustacheLibrary()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        for file in files where file.hasSuffix(".mustache") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            try library.register(text, named: String(file.dropLast(".mustache".count)))
        }
        self.library = library
        self.stylesheet = try String(contentsOf: folder.appendingPathComponent("console.css"), encoding: .utf8)
    }

    static let securityHeaders: [(HTTPField.Name, String)] = [
        (
            .contentSecurityPolicy,
            "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        ),
        (HTTPField.Name("X-Frame-Options")!, "DENY"),
        (HTTPField.Name("X-Content-Type-Options")!, "nosniff"),
        (HTTPField.Name("Referrer-Policy")!, "no-referrer"),
        (.cacheControl, "no-store"),
    ]

    /// `template` rendered with `values`, as an HTML answer.
    func page(_ template: String, _ values: [String: Any], status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:])
        -> Response
    {
        let html = library.render(values, withTemplate: template) ?? "<!doctype html><title>Provisio</title><p>Page missing.</p>"
        var headers = extra
        headers[.contentType] = "text/html; charset=utf-8"
        for (name, value) in Self.securityHeaders { headers[name] = value }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    func css() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/css; charset=utf-8"
        headers[.cacheControl] = "max-age=3600"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: stylesheet)))
    }

    /// A 303 to `location` (after a form, so a reload does not post again).
    static func redirect(_ location: String, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }
}
