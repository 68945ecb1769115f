import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioNetworkConnector

/// Where a card network's token service listens, the credentials Provisio presents to it, and
/// the dialect it speaks: the Provisio dialect's bearer key, or MDES's OAuth 1.0a consumer key
/// and signing key.
public struct NetworkEndpoint: Sendable, Equatable {
    /// MDES's credentials: the consumer key Mastercard issued and the RSA key whose public half
    /// is registered with it.
    public struct OAuthCredentials: Sendable, Equatable {
        public var consumerKey: String
        public var signingKey: OAuth1SigningKey

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.consumerKey == rhs.consumerKey && lhs.signingKey.publicKeyFingerprint == rhs.signingKey.publicKeyFingerprint
        }
    }

    public var url: String
    /// The Provisio dialect's bearer key; empty for MDES.
    public var apiKey: String
    public var dialect: NetworkDialect
    /// MDES's credentials; nil for the Provisio dialect.
    public var oauth: OAuthCredentials?
    /// MDES: the certificate whose key a reissued card's details are encrypted for; nil when the
    /// tenant has not set it (a reissue is then refused) and for the Provisio dialect.
    public var mastercardEncryptionCertificate: MastercardEncryptionCertificate?

    /// The Provisio dialect (or, for the operator's own configuration, a dialect named with it).
    public init(url: String, apiKey: String, dialect: NetworkDialect = .provisio) throws {
        try Self.checkURL(url, field: "url")
        guard (8...256).contains(apiKey.count), apiKey.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ProvisioError(.invalidParameter, "The network api_key must be 8 to 256 visible ASCII characters.")
        }
        self.url = url
        self.apiKey = apiKey
        self.dialect = dialect
    }

    /// Mastercard MDES's Customer Service API at `customerServiceURL`, signed for `consumerKey`,
    /// and the certificate of Mastercard's encryption key when the tenant has one.
    public init(
        mdesCustomerServiceURL customerServiceURL: String, consumerKey: String, signingKey: OAuth1SigningKey,
        mastercardEncryptionCertificate: MastercardEncryptionCertificate? = nil
    ) throws {
        try Self.checkURL(customerServiceURL, field: "customer_service_url")
        guard (1...256).contains(consumerKey.count), consumerKey.allSatisfy({ $0.isASCII && !$0.isWhitespace })
        else {
            throw ProvisioError(.invalidParameter, "oauth_consumer_key must be 1 to 256 visible ASCII characters.")
        }
        self.url = customerServiceURL
        self.apiKey = ""
        self.dialect = .mdes
        self.oauth = OAuthCredentials(consumerKey: consumerKey, signingKey: signingKey)
        self.mastercardEncryptionCertificate = mastercardEncryptionCertificate
    }

    /// An http(s) URL without query or fragment; the outbound policy checks its address apart.
    static func checkURL(_ url: String, field: String) throws {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
            parsed.host != nil, parsed.query == nil, parsed.fragment == nil, url.count <= 2048
        else {
            throw ProvisioError(.invalidParameter, "The network \(field) must be an http(s) URL without query or fragment.")
        }
    }
}
