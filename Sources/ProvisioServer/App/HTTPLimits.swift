/// The limits every connection and request to `provisio serve` lives within. Each one is
/// tested: a client that stops sending is dropped, one that sends too much is answered and
/// dropped, and no number of clients takes more than `maximumConnections` sockets.
public struct HTTPLimits: Sendable, Equatable {
    /// A connection with no request in flight (including one whose request line or headers are
    /// only half sent) is closed after this long.
    public var idleTimeout: Duration = .seconds(30)
    /// A request whose body has not fully arrived this long after its headers is answered 408
    /// `request_timeout` and its connection closed.
    public var bodyReadTimeout: Duration = .seconds(10)
    /// Request bodies above this are answered 413 `payload_too_large` and the connection closed.
    public var maximumBodyBytes = 256 * 1024
    /// The one route that takes a file, a card product's art (`PUT /v1/card-products/{id}/art`,
    /// base64 of art under 4 MB), may have a body up to this.
    public var maximumCardArtBodyBytes = 6 * 1024 * 1024
    /// All header lines of one request together, and how many there may be.
    public var maximumHeaderBytes = 16 * 1024
    public var maximumHeaderCount = 64
    /// Connections open at once; beyond it the server stops accepting until one closes.
    public var maximumConnections = 1024

    public init() {}

    public static let standard = HTTPLimits()
}
