import Foundation
import ProvisioCore
import ProvisioNetworkConnector

/// Where a card network's connector API listens, the key Provisio presents to it, and the
/// dialect it speaks.
public struct NetworkEndpoint: Sendable, Equatable {
    public var url: String
    public var apiKey: String
    /// Every endpoint speaks the Provisio dialect until a tenant's or the server's configuration
    /// can name another.
    public var dialect: NetworkDialect

    public init(url: String, apiKey: String, dialect: NetworkDialect = .provisio) throws {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
            parsed.host != nil, parsed.query == nil, parsed.fragment == nil, url.count <= 2048
        else {
            throw ProvisioError(.invalidParameter, "The network url must be an http(s) URL without query or fragment.")
        }
        guard (8...256).contains(apiKey.count), apiKey.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ProvisioError(.invalidParameter, "The network api_key must be 8 to 256 visible ASCII characters.")
        }
        self.url = url
        self.apiKey = apiKey
        self.dialect = dialect
    }
}
