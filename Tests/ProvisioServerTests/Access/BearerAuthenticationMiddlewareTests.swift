import Foundation
import Hummingbird
import HummingbirdTesting
import ProvisioCore
import ProvisioHTTP
import ProvisioJSON
import Testing

@testable import ProvisioServer

/// The one bearer middleware both services use: it reads the header, hands the token to the
/// service's authenticator, and the handler sees the context the authenticator returned.
@Suite struct BearerAuthenticationMiddlewareTests {
    /// A context that keeps who called, as Provisio's keeps its principal.
    struct CallerContext: WireRequestContext {
        var coreContext: CoreRequestContextStorage
        let requestID = RequestID.generate()
        let bodyDeadline = ContinuousClock.now.advanced(by: .seconds(10))
        var caller: String?

        init(source: ApplicationRequestContextSource) {
            self.coreContext = .init(source: source)
        }
    }

    /// Admits one token, as "alice"; counts what it was asked.
    struct OneToken: BearerAuthenticator {
        let asked: Counter

        func authenticate(_ token: String, request: Request, context: CallerContext) async throws -> CallerContext {
            asked.add()
            guard token == "tok_alice" else { throw ProvisioError(.invalidCredentials, "Not a known token.") }
            var context = context
            context.caller = "alice"
            return context
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    @Test func theHandlerSeesWhatTheAuthenticatorReturned() async throws {
        let asked = Counter()
        let router = Router(context: CallerContext.self)
        router.add(middleware: WireErrorMiddleware(dialect: .provisio))
        router.group().add(middleware: BearerAuthenticationMiddleware(dialect: .provisio, authenticator: OneToken(asked: asked)))
            .get("/who") { _, context in context.caller ?? "nobody" }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/who", method: .get, headers: [.authorization: "bearer tok_alice"]) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "alice")
            }
            try await client.execute(uri: "/who", method: .get, headers: [.authorization: "Bearer tok_mallory"]) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains(#""code":"invalid_credentials""#))
            }
            #expect(asked.value == 2)
            // No header, or not a bearer one: the dialect's refusal, and the authenticator is not asked.
            for headers: HTTPFields in [[:], [.authorization: "Basic tok_alice"], [.authorization: "Bearer"]] {
                try await client.execute(uri: "/who", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized)
                    #expect(String(buffer: response.body).contains(#""code":"missing_credentials""#))
                }
            }
            #expect(asked.value == 2)
        }
    }
}
