import ProvisioCore

extension ProvisioError {
    /// The HTTP status an error code is answered with, declared with the code in error-codes.yaml
    /// (the generated `ProvisioError.Code.declaredStatuses`), so that no code falls back to a
    /// guessed status. Only the statuses some code uses are listed; the raw value is the status
    /// code. It lives with the servers: the SDK reads codes and never answers one.
    public enum Status: Int, Hashable, Sendable, CaseIterable {
        /// The request is malformed or a value in it is not valid.
        case badRequest = 400
        /// No credentials, or credentials that are not known or have expired.
        case unauthorized = 401
        /// Valid credentials that may not do this.
        case forbidden = 403
        /// The thing (or route) asked for does not exist.
        case notFound = 404
        /// The route exists but not with this method.
        case methodNotAllowed = 405
        /// The request was not received in time.
        case requestTimeout = 408
        /// The request meets a state that refuses it (closed card, used token, replay).
        case conflict = 409
        /// The request body is over the limit.
        case contentTooLarge = 413
        /// A well-formed request the receiver refuses (expired card, bad chain, wrong TAV).
        case unprocessableContent = 422
        /// Too many attempts in a row (sign-in throttling); try again later.
        case tooManyRequests = 429
        /// The server failed (its keys, its vault, a bug).
        case internalServerError = 500
        /// A service behind this one failed, refused or answered nonsense.
        case badGateway = 502
        /// A dependency (database, network connector) is not available right now.
        case serviceUnavailable = 503
    }
}

extension ProvisioError.Code {
    /// The status a server answers this code with: the one error-codes.yaml declares; 502 for a
    /// code another service sent (its meaning is that service's); 500 for a code no catalog
    /// declares, which only a test can make.
    public var status: ProvisioError.Status {
        if isReceived { return .badGateway }
        return Self.declaredStatuses[rawValue] ?? .internalServerError
    }
}
