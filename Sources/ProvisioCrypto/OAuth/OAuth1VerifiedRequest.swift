/// What `OAuth1Verifier` established about a request it accepted.
public struct OAuth1VerifiedRequest: Sendable, Hashable {
    /// The consumer whose key signed the request.
    public let consumerKey: String
    public let nonce: String
    /// `oauth_timestamp`, seconds since 1970.
    public let timestamp: Int64
}
