import Foundation
import HTTPTypes
import Logging
import NIOCore
import ProvisioCore
import Testing

@testable import ProvisioServer

/// Over TLS (the server's own or a declared proxy's) the console's cookies carry the `__Host-`
/// prefix, so no sibling host and no plain-http page can set or shadow them, and every answer
/// carries HSTS; over plain http neither (a browser would refuse such cookies there).
@Suite struct TransportSecurityTests {
    static let hsts = "max-age=31536000; includeSubDomains"

    @Test func secureCookiesTakeTheHostPrefix() async throws {
        try await TestServer.run(.sqlite, secureConsoleCookies: true) { server in
            let (tenantID, _) = try await server.makeTenant()
            let admin = try await server.makeOperator(tenantID: tenantID, role: .admin)
            let page = try await server.raw.get("/console/sign-in")
            let csrfCookie = try #require(page.headers[values: .setCookie].first, "no sign-in cookie")
            #expect(csrfCookie.hasPrefix("__Host-provisio_console_csrf="), "\(csrfCookie)")
            let browser = ConsoleSession(raw: server.raw)
            let signedIn = try await browser.signIn(tenantID: tenantID, email: admin.email, password: admin.password)
            #expect(signedIn.status == 303)
            let session = try #require(signedIn.headers[values: .setCookie].first { $0.contains("provisio_console=") })
            #expect(session.hasPrefix("__Host-provisio_console="), "\(session)")
            for cookie in [csrfCookie, session] {
                let attributes = Set(cookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(attributes.isSuperset(of: ["Path=/", "Secure", "HttpOnly", "SameSite=Strict"]), "\(cookie)")
                #expect(!cookie.lowercased().contains("domain="), "\(cookie)")
            }
            #expect(try await browser.get("/console").status == 200)
            // The same token under the plain name (as a sibling host or an http page could set
            // it) is no session.
            let token = String(session.split(separator: ";")[0].split(separator: "=", maxSplits: 1)[1])
            let plain = try await server.raw.send(
                .get, "/console", token: nil, body: nil, headers: ["Cookie": "provisio_console=\(token)"])
            #expect(plain.status == 303 && plain.header("Location") == "/console/sign-in")
        }
    }

    @Test func plainHTTPCookiesHaveNoPrefix() async throws {
        try await TestServer.run(.sqlite, secureConsoleCookies: false) { server in
            let page = try await server.raw.get("/console/sign-in")
            let cookie = try #require(page.headers[values: .setCookie].first)
            #expect(cookie.hasPrefix("provisio_console_csrf=") && cookie.contains("Path=/console") && !cookie.contains("Secure"))
            #expect(page.header("Strict-Transport-Security") == nil)
        }
    }

    /// Every kind of answer: a health check, a console page, an API error, an unknown path.
    static func answers(_ server: LiveConsoleServer, scheme: String) async throws -> [LiveConsoleServer.Answer] {
        [
            try await server.send(.GET, "/health", scheme: scheme),
            try await server.send(.GET, "/console/sign-in", scheme: scheme),
            try await server.send(.GET, "/v1/cards", scheme: scheme),
            try await server.send(.GET, "/no/such/path", scheme: scheme),
        ]
    }

    @Test func everyAnswerOverTLSCarriesHSTS() async throws {
        let directory = NSTemporaryDirectory() + "provisio-hsts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TLSTests.write(try TLSTests.makeIdentity(name: "hsts"), to: directory)
        let tls = try TLSCredentials(certificateFile: directory + "/cert.pem", keyFile: directory + "/key.pem")
        try await LiveConsoleServer.run(tls: tls) { server in
            for answer in try await Self.answers(server, scheme: "https") {
                #expect(answer.header("Strict-Transport-Security") == Self.hsts, "\(answer.status)")
            }
        }
    }

    @Test(arguments: [true, false])
    func behindADeclaredTLSProxyAnswersCarryHSTS(_ proxy: Bool) async throws {
        try await LiveConsoleServer.run(configure: { $0.behindTLSProxy = proxy }) { server in
            for answer in try await Self.answers(server, scheme: "http") {
                #expect(answer.header("Strict-Transport-Security") == (proxy ? Self.hsts : nil), "\(answer.status)")
            }
        }
    }

    /// The parser's refusal (headers too large) is written below the responders, by the
    /// connection guard: it carries HSTS too when clients come over TLS.
    @Test(arguments: [true, false])
    func aRequestTheParserRefusesCarriesHSTSOverTLS(_ proxy: Bool) async throws {
        try await LiveConsoleServer.run(configure: { $0.behindTLSProxy = proxy }) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 40_000))\r\n\r\n")
            let text = String(decoding: await connection.readUntilClosed(timeout: .seconds(20)).data, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400"), "\(text.prefix(120))")
            let hsts = text.lowercased().contains("strict-transport-security: \(Self.hsts.lowercased())")
            #expect(hsts == proxy, "\(text.prefix(400))")
        }
    }

    /// `serve` with `--tls-cert` or `--behind-tls-proxy` gets Secure `__Host-` cookies; only the
    /// proxy makes the forwarded address count; plain development gets neither.
    @Test func theServerTakesTLSFromItsConfiguration() async throws {
        let directory = NSTemporaryDirectory() + "provisio-assembly-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var logger = Logger(label: "assembly")
        logger.logLevel = .critical
        for (tls, proxy) in [(false, false), (true, false), (false, true)] {
            var configuration = ServerConfiguration()
            configuration.database = .sqlite(path: directory + "/\(tls)-\(proxy).sqlite")
            configuration.keysDirectory = directory + "/keys"
            if tls {
                configuration.tlsCertificateFile = directory + "/cert.pem"
                configuration.tlsKeyFile = directory + "/key.pem"
            }
            configuration.behindTLSProxy = proxy
            let services = try await ServerAssembly.assemble(configuration, logger: logger)
            await services.handle.shutdown()
            #expect(services.secureConsoleCookies == (tls || proxy), "tls \(tls), proxy \(proxy)")
            #expect(services.behindTLSProxy == proxy, "tls \(tls), proxy \(proxy)")
        }
    }
}
