import Hummingbird
import ProvisioCore
import ProvisioHTTP

/// Reads `Authorization: Bearer …`, resolves it with `AccessService`, and admits only the
/// credential kinds the route group allows (API keys for the issuer's backend; mobile sessions
/// and provision tokens for the SDK).
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = ProvisioRequestContext

    enum Audience: Sendable {
        case issuerBackend
        case mobile
        case network
    }

    let access: AccessService
    let audience: Audience

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let principal = try await access.authenticate(bearer: try BearerAuthorization.token(of: request, dialect: .provisio))
        switch (audience, principal) {
        case (.issuerBackend, .apiKey), (.mobile, .mobileSession), (.mobile, .provisionToken), (.network, .network):
            break
        case (.network, _):
            throw ProvisioError(.wrongCredentialKind, "Network endpoints take the card network's key (prv_nk_…).")
        case (.issuerBackend, .provisionToken(let token, _)) where token.usedAt != nil:
            throw ProvisioError(.tokenAlreadyUsed, "The provision token was already used; request a new one.")
        case (.issuerBackend, _):
            throw ProvisioError(.wrongCredentialKind, "This endpoint is for the issuer's backend and needs an API key.")
        case (.mobile, .apiKey), (.mobile, .network):
            throw ProvisioError(
                .wrongCredentialKind, "Mobile endpoints take a mobile session or provision token, never an API key.")
        }
        var context = context
        context.principal = principal
        context.logger[metadataKey: "tenant_id"] = .string(principal.tenantID)
        return try await next(request, context)
    }
}
