import Hummingbird

/// What one service makes of a bearer token it was presented. The header is read once, for every
/// service, by `BearerAuthenticationMiddleware`; whom the token names and what that caller may
/// call are the service's.
public protocol BearerAuthenticator<Context>: Sendable {
    associatedtype Context: RequestContext

    /// The context the rest of the chain sees (with the caller in it, where the context keeps
    /// one), or a thrown `ProvisioError` that refuses the request. Returning a context rather than
    /// a principal lets a service with no caller to keep (the sandbox) pass the context through.
    func authenticate(_ token: String, request: Request, context: Context) async throws -> Context
}
