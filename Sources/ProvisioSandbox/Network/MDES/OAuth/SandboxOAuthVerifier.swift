import Crypto
import Foundation
import ProvisioCore
import _CryptoExtras

/// Checks what the issuer signs when it calls the sandbox's MDES Customer Service API: one-legged
/// OAuth 1.0a (RFC 5849) with `RSA-SHA256` and the body-hash extension, as Mastercard's API
/// gateway does, written from those documents (docs/mdes.md, "Signing"), not from Provisio's signer.
///
/// Pure: the time comes in, and replayed nonces are the caller's to remember (`OAuthNonceLedger`).
/// A refusal is `sandbox_oauth_signature_invalid` and says which check failed, never a value.
public struct SandboxOAuthVerifier: Sendable {
    /// What a verified request proves.
    public struct Verified: Sendable, Hashable {
        public let consumerKey: String
        public let nonce: String
        public let timestamp: Int64
    }

    /// How far the request's `oauth_timestamp` may be from the sandbox's clock, either way.
    public static let allowedClockSkew: Int64 = 300

    private let publicKey: _RSA.Signing.PublicKey
    /// When set, only this consumer key is accepted.
    public let consumerKey: String?

    /// - Parameter publicKeyPEM: the public half of the issuer's signing key ("PUBLIC KEY" PEM).
    public init(publicKeyPEM: String, consumerKey: String? = nil) throws {
        do {
            self.publicKey = try _RSA.Signing.PublicKey(pemRepresentation: publicKeyPEM)
        } catch {
            throw ProvisioError(
                .sandboxMdesKeyInvalid, "The issuer's OAuth public key is not an RSA public key (PEM) of 2048 bits or more.")
        }
        self.consumerKey = consumerKey
    }

    /// Verifies one request.
    /// - Parameters:
    ///   - url: the URL the request was sent to, as the signer saw it (scheme, host, port, path; a
    ///     query, if any, joins the signed parameters).
    ///   - body: the exact bytes received.
    public func verify(method: String, url: String, authorization: String?, body: Data, now: Date) throws -> Verified {
        guard let authorization, let header = OAuthAuthorizationHeader(authorization) else {
            throw refusal("The Authorization header is not an OAuth 1.0a header.")
        }
        let oauth = header.parameters
        guard let key = oauth["oauth_consumer_key"], !key.isEmpty, let nonce = oauth["oauth_nonce"], !nonce.isEmpty,
            let signatureText = oauth["oauth_signature"], let timestampText = oauth["oauth_timestamp"],
            let bodyHash = oauth["oauth_body_hash"]
        else {
            throw refusal("A required OAuth parameter is missing.")
        }
        guard oauth["oauth_signature_method"] == "RSA-SHA256" else {
            throw refusal("The signature method is not RSA-SHA256.")
        }
        guard oauth["oauth_version"].map({ $0 == "1.0" }) ?? true else {
            throw refusal("The OAuth version is not 1.0.")
        }
        if let consumerKey, !ConstantTime.equal(key, consumerKey) {
            throw refusal("The consumer key is not the issuer's.")
        }
        guard timestampText.allSatisfy(\.isASCII), let timestamp = Int64(timestampText), timestamp > 0 else {
            throw refusal("oauth_timestamp is not a number of seconds.")
        }
        guard abs(timestamp - Int64(now.timeIntervalSince1970.rounded(.down))) <= Self.allowedClockSkew else {
            throw refusal("oauth_timestamp is more than \(Self.allowedClockSkew) seconds from the sandbox's clock.")
        }
        guard ConstantTime.equal(bodyHash, Data(SHA256.hash(data: body)).base64EncodedString()) else {
            throw refusal("oauth_body_hash is not the SHA-256 of the body.")
        }
        guard let signature = Data(base64Encoded: signatureText) else {
            throw refusal("oauth_signature is not base64.")
        }
        guard let components = URLComponents(string: url), let base = Self.baseURL(components) else {
            throw refusal("The request URL cannot be normalised.")
        }
        var parameters = oauth.filter { $0.key != "oauth_signature" && $0.key != "realm" }.map { ($0.key, $0.value) }
        guard let query = Self.queryParameters(components.percentEncodedQuery) else {
            throw refusal("The request URL's query cannot be decoded.")
        }
        parameters += query
        let baseString = Self.signatureBaseString(method: method, baseURL: base, parameters: parameters)
        let valid = publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: Data(baseString.utf8)),
            padding: .insecurePKCS1v1_5)
        guard valid else { throw refusal("The RSA-SHA256 signature does not verify.") }
        return Verified(consumerKey: key, nonce: nonce, timestamp: timestamp)
    }

    /// RFC 5849 §3.4.1: the method in capitals, the base URL and the normalised parameters, each
    /// percent-encoded, joined with `&`.
    static func signatureBaseString(method: String, baseURL: String, parameters: [(String, String)]) -> String {
        let encoded: [(name: String, value: String)] = parameters.map { pair in
            (OAuthPercentEncoding.encode(pair.0), OAuthPercentEncoding.encode(pair.1))
        }
        let sorted = encoded.sorted { a, b in a.name == b.name ? a.value < b.value : a.name < b.name }
        let normalized = sorted.map { pair in pair.name + "=" + pair.value }.joined(separator: "&")
        return [method.uppercased(), OAuthPercentEncoding.encode(baseURL), OAuthPercentEncoding.encode(normalized)]
            .joined(separator: "&")
    }

    /// RFC 5849 §3.4.1.3.1: the query as `application/x-www-form-urlencoded` (`+` is a space).
    static func queryParameters(_ query: String?) -> [(String, String)]? {
        guard let query, !query.isEmpty else { return [] }
        var pairs: [(String, String)] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decoded = parts.map { OAuthPercentEncoding.decode($0.replacingOccurrences(of: "+", with: " ")) }
            guard let name = decoded[0] else { return nil }
            guard let value = decoded.count > 1 ? decoded[1] : "" else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// RFC 5849 §3.4.1.2: scheme and host in lower case, the port only when not the scheme's
    /// default, the path, no query or fragment.
    static func baseURL(_ components: URLComponents) -> String? {
        guard let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return "\(scheme)://\(host)\(port)\(path)"
    }

    private func refusal(_ message: String) -> ProvisioError {
        ProvisioError(.sandboxOauthSignatureInvalid, message)
    }
}
