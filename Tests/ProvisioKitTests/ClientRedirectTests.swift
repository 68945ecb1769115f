import Foundation
import HTTPTypes
import Hummingbird
import ProvisioClient
import ProvisioCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK's requests carry a bearer token: a redirect must never take it elsewhere.
@Suite struct ClientRedirectTests {
    @Test func aRedirectIsNotFollowedAndTheTokenStaysHome() async throws {
        let seen = SeenHeaders()
        let target = try await LoopbackServer.serve { request in
            seen.append(request.headers[.authorization] ?? "none")
            return Response(status: .ok)
        }
        defer { target.stop() }
        let redirector = try await LoopbackServer.serve { _ in
            var headers = HTTPFields()
            headers[.location] = "http://127.0.0.1:\(target.port)/v1/mobile/cards"
            return Response(status: .found, headers: headers)
        }
        defer { redirector.stop() }

        let client = ProvisioMobileClient(
            baseURL: URL(string: "http://127.0.0.1:\(redirector.port)")!, credential: .mobileSession("prv_ms_secret"))
        let error = await #expect(throws: ProvisioClientError.self) { _ = try await client.cards() }
        #expect(
            error?.httpStatus == 302 || error?.code == .clientResponseInvalid, "\(String(describing: error))")
        #expect(seen.values.isEmpty, "the redirect was followed")
    }
}

/// What the redirect target saw.
final class SeenHeaders: Sendable {
    private let stored = Locked<[String]>([])
    func append(_ value: String) { stored.withLock { $0.append(value) } }
    var values: [String] { stored.value }
}
