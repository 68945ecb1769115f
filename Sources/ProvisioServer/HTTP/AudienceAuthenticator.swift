import Hummingbird
import ProvisioCore
import ProvisioHTTP

/// Resolves a bearer token with `AccessService` and admits only the credential kinds the route
/// group allows (API keys for the issuer's backend; mobile sessions and provision tokens for the
/// SDK; the network's key for the network), and refuses an API key whose scope does not cover
/// the matched operation. Its middleware runs before idempotency, so a key that may not call an
/// operation never reaches a stored answer of it (nor stores one).
struct AudienceAuthenticator: BearerAuthenticator {
    typealias Context = ProvisioRequestContext

    enum Audience: Sendable {
        case issuerBackend
        case mobile
        case network
    }

    let access: AccessService
    let audience: Audience

    func authenticate(_ token: String, request: Request, context: Context) async throws -> Context {
        let principal = try await access.authenticate(bearer: token)
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
        if case .apiKey(let key) = principal {
            // Hummingbird has matched the route: its path is the document's template
            // (`/v1/cards/{id}/…`). No path means no operation to permit.
            let operation = context.endpointPath ?? ""
            guard key.scope.permits(method: request.method, path: operation) else {
                throw ProvisioError(
                    .insufficientScope,
                    "This API key's scope (\(key.scope.rawValue)) does not allow \(request.method.rawValue) \(operation).")
            }
        }
        var context = context
        context.principal = principal
        context.logger[metadataKey: "tenant_id"] = .string(principal.tenantID)
        return context
    }
}

extension BearerAuthenticationMiddleware where Authenticator == AudienceAuthenticator {
    /// Provisio's authentication of one route group.
    init(access: AccessService, audience: AudienceAuthenticator.Audience) {
        self.init(dialect: .provisio, authenticator: AudienceAuthenticator(access: access, audience: audience))
    }
}
