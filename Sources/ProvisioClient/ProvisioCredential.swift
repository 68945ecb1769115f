/// What the app authenticates with on `/v1/mobile/` routes; both are sent as a Bearer token.
public enum ProvisioCredential: Sendable, Hashable, CustomStringConvertible {
    /// A mobile session (`POST /v1/mobile-sessions`): one customer's cards until it expires.
    case mobileSession(String)
    /// A single-use provision token (`POST /v1/provision-tokens`): one card, one wallet, once.
    case provisionToken(String)

    /// The bearer token.
    public var token: String {
        switch self {
        case .mobileSession(let token), .provisionToken(let token): token
        }
    }

    /// Never prints the token.
    public var description: String {
        switch self {
        case .mobileSession: "mobileSession(redacted)"
        case .provisionToken: "provisionToken(redacted)"
        }
    }
}
