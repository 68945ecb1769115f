import Hummingbird
import ProvisioCore
import ProvisioHTTP
import ProvisioSandbox

/// Admits a request only with the sandbox's API key as its bearer token: the sandbox creates
/// tokens and plays the cardholder, so nobody else on the network may drive it. The key is
/// compared in constant time, so its prefix cannot be guessed byte by byte from response times.
struct SandboxKeyAuthenticator: BearerAuthenticator {
    typealias Context = PlainRequestContext

    let apiKey: String

    func authenticate(_ token: String, request: Request, context: Context) async throws -> Context {
        guard ConstantTime.equal(token, apiKey) else {
            throw ProvisioError(.sandboxUnauthorized, "The bearer token is not the sandbox's API key.")
        }
        return context
    }
}

extension BearerAuthenticationMiddleware where Authenticator == SandboxKeyAuthenticator {
    /// The sandbox's authentication: its one key, its dialect's codes.
    init(sandboxKey apiKey: String) {
        self.init(dialect: .sandbox, authenticator: SandboxKeyAuthenticator(apiKey: apiKey))
    }
}
