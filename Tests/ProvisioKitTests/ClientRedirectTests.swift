import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ProvisioClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK's requests carry a bearer token: a redirect must never take it elsewhere.
@Suite struct ClientRedirectTests {
    /// A loopback HTTP server; `handler` answers every request.
    static func serve(_ handler: @escaping @Sendable (Request) -> Response) async throws -> (
        port: Int, task: Task<Void, any Error>
    ) {
        let router = Router()
        router.get("**") { request, _ in handler(request) }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "redirect-test")
        logger.logLevel = .error
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.runService() }
        for await port in stream { return (port, task) }
        throw CancellationError()
    }

    @Test func aRedirectIsNotFollowedAndTheTokenStaysHome() async throws {
        let seen = SeenHeaders()
        let target = try await Self.serve { request in
            seen.append(request.headers[.authorization] ?? "none")
            return Response(status: .ok)
        }
        defer { target.task.cancel() }
        let redirector = try await Self.serve { _ in
            var headers = HTTPFields()
            headers[.location] = "http://127.0.0.1:\(target.port)/v1/mobile/cards"
            return Response(status: .found, headers: headers)
        }
        defer { redirector.task.cancel() }

        let client = ProvisioMobileClient(
            baseURL: URL(string: "http://127.0.0.1:\(redirector.port)")!, credential: .mobileSession("prv_ms_secret"))
        let error = await #expect(throws: ProvisioClientError.self) { _ = try await client.cards() }
        #expect(
            error?.httpStatus == 302 || error?.code == ProvisioClientError.responseInvalidCode, "\(String(describing: error))")
        #expect(seen.values.isEmpty, "the redirect was followed")
    }
}

/// What the redirect target saw. `@unchecked Sendable`: `stored` is used only under `lock`.
final class SeenHeaders: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ value: String) { lock.withLock { stored.append(value) } }
    var values: [String] { lock.withLock { stored } }
}
