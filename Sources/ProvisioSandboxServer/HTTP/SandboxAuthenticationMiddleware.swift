import Hummingbird
import ProvisioCore
import ProvisioSandbox

/// Admits a request only with `Authorization: Bearer <api key>`: the sandbox creates tokens and
/// plays the cardholder, so nobody else on the network may drive it. The key is compared in
/// constant time, so its prefix cannot be guessed byte by byte from response times.
struct SandboxAuthenticationMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let apiKey: [UInt8]

    init(apiKey: String) {
        self.apiKey = Array(apiKey.utf8)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard let header = request.headers[.authorization] else {
            throw ProvisioError(.sandboxUnauthorized, "Send Authorization: Bearer <the sandbox's API key>.")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
            throw ProvisioError(.sandboxUnauthorized, "The Authorization header must be 'Bearer <the sandbox's API key>'.")
        }
        guard Self.constantTimeEqual(Array(parts[1].utf8), apiKey) else {
            throw ProvisioError(.sandboxUnauthorized, "The bearer token is not the sandbox's API key.")
        }
        return try await next(request, context)
    }

    /// Runs over every byte of the presented key whatever it holds; only its length shows.
    static func constantTimeEqual(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference: UInt8 = presented.count == expected.count ? 0 : 1
        for index in presented.indices {
            difference |= presented[index] ^ (index < expected.count ? expected[index] : 0)
        }
        return difference == 0 && !expected.isEmpty
    }
}
