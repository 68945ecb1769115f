import Foundation
import Hummingbird
import Logging
import ProvisioDoctor
import ProvisioHTTP
import Testing

/// `--server` against real HTTP servers on loopback that answer the ways a wrong URL does:
/// a redirect, another service, a slow or oversized answer. (The CLI tests probe a running
/// `provisio serve`, the right answer.)
@Suite struct ServerProbeTests {
    /// Serves `router` on 127.0.0.1 for the duration of `body`; a handler still running after
    /// it (a slow answer) is cancelled a second later.
    func serving(_ router: Router<BasicRequestContext>, _ body: (URL) async throws -> Void) async throws {
        try await RunningApplication.with(logger: Logger(label: "server-probe-test"), grace: .seconds(1)) { onListening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onListening($0.localAddress?.port ?? 0) })
        } _: { running in
            try await body(URL(string: "http://127.0.0.1:\(running.port)")!)
        }
    }

    func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    @Test func aProvisioShapedServerPasses() async throws {
        let router = Router()
        router.get("/health") { _, _ in json(.ok, #"{"status":"ok"}"#) }
        router.get("/v1/mobile/cards") { _, _ in
            json(.unauthorized, #"{"error":{"code":"missing_credentials","message":"…","request_id":"req_1"}}"#)
        }
        try await serving(router) { url in
            #expect(await ServerProbe().probe(url) == [])
            // A trailing slash on the base URL changes nothing.
            #expect(await ServerProbe().probe(URL(string: url.absoluteString + "/")!) == [])
        }
    }

    @Test func aRedirectIsReportedNotFollowed() async throws {
        let router = Router()
        router.get("/health") { _, _ in
            Response(status: .movedPermanently, headers: [.location: "https://elsewhere.example/health"])
        }
        try await serving(router) { url in
            let findings = await ServerProbe().probe(url)
            #expect(findings.map(\.code) == [.serverRedirects])
            #expect(findings.first?.message.contains("https://elsewhere.example/health") == true)
        }
    }

    @Test func anotherServiceIsNotProvisio() async throws {
        let router = Router()
        router.get("/health") { _, _ in json(.ok, #"{"status":"ok"}"#) }
        router.get("/v1/mobile/cards") { _, _ in json(.ok, "[]") }
        try await serving(router) { url in
            #expect(await ServerProbe().probe(url).map(\.code) == [.serverNotProvisio])
        }
        let nothing = Router()
        try await serving(nothing) { url in
            #expect(await ServerProbe().probe(url).map(\.code) == [.serverNotProvisio])
        }
    }

    @Test func anOversizedAnswerIsNotReadWhole() async throws {
        let router = Router()
        router.get("/health") { _, _ in json(.ok, String(repeating: " ", count: 100_000) + #"{"status":"ok"}"#) }
        try await serving(router) { url in
            let findings = await ServerProbe(maximumBodyBytes: 1024).probe(url)
            #expect(findings.map(\.code) == [.serverNotProvisio])
            #expect(findings.first?.message.contains("more than 1024 bytes") == true)
        }
    }

    @Test func aSlowServerTimesOut() async throws {
        let router = Router()
        router.get("/health") { _, _ in
            try await Task.sleep(for: .seconds(10))
            return json(.ok, #"{"status":"ok"}"#)
        }
        try await serving(router) { url in
            let started = ContinuousClock.now
            let findings = await ServerProbe(timeoutSeconds: 1).probe(url)
            #expect(findings.map(\.code) == [.serverUnreachable])
            #expect(findings.first?.message.contains("within 1 s") == true)
            // Well before the server's 10 s answer: the probe gave up at its timeout. (A 4 s bound
            // was once missed by 0.3 s with the whole suite sharing two cores.)
            #expect(ContinuousClock.now - started < .seconds(8))
        }
    }

    @Test func aClosedPortIsUnreachable() async throws {
        // Bind, learn the port, stop: nothing listens there any more.
        var closed = 0
        try await serving(Router()) { url in closed = url.port ?? 0 }
        try await Task.sleep(for: .milliseconds(200))
        let findings = await ServerProbe(timeoutSeconds: 2).probe(URL(string: "http://127.0.0.1:\(closed)")!)
        #expect(findings.map(\.code) == [.serverUnreachable])
    }

    @Test func theURLMustBeHTTPSUnlessLoopback() throws {
        for valid in [
            "https://provisio.example.com", "https://provisio.example.com/base/", "http://127.0.0.1:8080", "http://localhost:1",
        ] {
            #expect(throws: Never.self) { try ServerProbe.validate(valid) }
        }
        for invalid in [
            "http://provisio.example.com", "http://127.0.0.1.example.com", "ftp://provisio.example.com", "provisio.example.com",
            "https://user:pw@provisio.example.com", "https://provisio.example.com/?q=1",
        ] {
            do {
                _ = try ServerProbe.validate(invalid)
                Issue.record("\(invalid) was accepted")
            } catch {
                #expect(error.code == .invalidArgument)
            }
        }
    }
}
