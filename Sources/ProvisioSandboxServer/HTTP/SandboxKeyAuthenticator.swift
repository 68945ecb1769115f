import Hummingbird
import ProvisioCore
import ProvisioHTTP
import ProvisioSandbox

/// Admits a request only with `Authorization: Bearer <the sandbox's API key>`: the sandbox
/// creates tokens and plays the cardholder, so nobody else on the network may drive it. The key
/// is compared in constant time, so its prefix cannot be guessed byte by byte from response times.
struct SandboxKeyMiddleware: RouterMiddleware {
    typealias Context = PlainRequestContext

    let apiKey: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let presented = try BearerAuthorization.token(of: request, dialect: .sandbox)
        guard ConstantTime.equal(presented, apiKey) else {
            throw ProvisioError(.sandboxUnauthorized, "The bearer token is not the sandbox's API key.")
        }
        return try await next(request, context)
    }
}
