import Hummingbird

/// Reads `Authorization: Bearer <token>` and lets `authenticator` decide: the request goes on
/// with the context it returns, or is refused with what it throws. A missing or malformed header
/// is refused with the dialect's `missingCredentials` before the authenticator sees anything.
public struct BearerAuthenticationMiddleware<Authenticator: BearerAuthenticator>: RouterMiddleware {
    public typealias Context = Authenticator.Context

    public let dialect: WireDialect
    public let authenticator: Authenticator

    public init(dialect: WireDialect, authenticator: Authenticator) {
        self.dialect = dialect
        self.authenticator = authenticator
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let token = try BearerAuthorization.token(of: request, dialect: dialect)
        let admitted = try await authenticator.authenticate(token, request: request, context: context)
        return try await next(request, admitted)
    }
}
