import Crypto
import Foundation
import ProvisioCore
import _CryptoExtras

/// Signs a request the way Mastercard's APIs (MDES Customer Service among them) authenticate
/// callers: OAuth 1.0a (RFC 5849) with `RSA-SHA256` — RSASSA-PKCS1-v1_5 over SHA-256 of the
/// signature base string — and the body-hash extension, `oauth_body_hash` = base64(SHA-256(body)),
/// sent with every request, an empty body included. There is no token: the consumer key and
/// the private signing key the issuer holds are the credentials.
///
/// Nonce and timestamp come in, so a test can fix them; `makeNonce()` draws a fresh one.
public struct OAuth1Signer: Sendable {
    public static let signatureMethod = "RSA-SHA256"
    public static let version = "1.0"

    public let consumerKey: String
    let signingKey: _RSA.Signing.PrivateKey

    public init(consumerKey: String, signingKey: _RSA.Signing.PrivateKey) {
        self.consumerKey = consumerKey
        self.signingKey = signingKey
    }

    /// The `Authorization` header value for a request: `OAuth oauth_body_hash="…",…,oauth_signature="…"`.
    /// `url` is the full request URL, query included; `timestamp` is seconds since 1970.
    public func authorizationHeader(method: String, url: String, body: Data, nonce: String, timestamp: Int64) throws
        -> String
    {
        guard !nonce.isEmpty else {
            throw ProvisioError(.oauthRequestInvalid, "An OAuth nonce is not empty.")
        }
        var parameters: [(name: String, value: String)] = [
            ("oauth_body_hash", Self.bodyHash(body)),
            ("oauth_consumer_key", consumerKey),
            ("oauth_nonce", nonce),
            ("oauth_signature_method", Self.signatureMethod),
            ("oauth_timestamp", String(timestamp)),
            ("oauth_version", Self.version),
        ]
        let baseString = try OAuth1SignatureBaseString.make(method: method, url: url, parameters: parameters)
        let signature = try signingKey.signature(for: SHA256.hash(data: Data(baseString.utf8)), padding: .insecurePKCS1v1_5)
        parameters.append(("oauth_signature", signature.rawRepresentation.base64EncodedString()))
        return OAuth1AuthorizationHeader(parameters: parameters).rendered()
    }

    /// base64(SHA-256(body)), the body-hash extension's `oauth_body_hash`.
    public static func bodyHash(_ body: Data) -> String {
        Data(SHA256.hash(data: body)).base64EncodedString()
    }

    /// 16 random bytes as 32 hex digits.
    public static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return BinaryText.lowercaseHex((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
