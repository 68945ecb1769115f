import Hummingbird

/// What the shared HTTP layer reads of a request context: the request's id (in error bodies, the
/// `X-Request-Id` header and log lines), how large its body may be (`maxUploadSize`) and when it
/// must have arrived.
public protocol WireRequestContext: RequestContext {
    var requestID: String { get }
    /// A body not all there by this instant is refused (408).
    var bodyDeadline: ContinuousClock.Instant { get }
}
