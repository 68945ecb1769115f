/// A tenant-configured destination that passed `OutboundPolicy.checkURL`: http(s), a strictly
/// spelled host, no credentials or fragment. Only the policy creates it, so holding one means
/// the configuration-time checks were made; the resolved addresses still need `check(_:)` at
/// connect time, because a name can resolve anywhere.
public struct OutboundURL: Sendable, Hashable, CustomStringConvertible {
    /// "http" or "https", lowercased.
    public let scheme: String
    /// Lowercased; an IPv6 literal in its canonical form without brackets.
    public let host: String
    /// The explicit port, or 80 / 443 by scheme.
    public let port: Int
    /// The address when the host is an IP literal; nil for a name that must be resolved.
    public let address: IPAddress?
    /// The normalized URL to send requests to: lowercase scheme and host, canonical IP literal,
    /// default port omitted, an empty path as `/`, the path and query as given.
    public let url: String

    public var isIPLiteral: Bool { address != nil }

    public var isHTTPS: Bool { scheme == "https" }

    /// Equal to `url`: the URL itself, which callers must not put into errors shown to tenants.
    public var description: String { url }

    init(scheme: String, host: String, port: Int, address: IPAddress?, url: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.address = address
        self.url = url
    }
}
