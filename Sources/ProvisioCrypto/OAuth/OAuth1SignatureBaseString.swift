import Foundation
import ProvisioCore

/// The signature base string of RFC 5849 section 3.4.1: what an OAuth 1.0a signature signs.
///
///     METHOD & encode(base string URI) & encode(normalized parameters)
///
/// The parameters are the URL's query, the protocol parameters (every `oauth_` parameter but
/// `oauth_signature`; never `realm`) and, for a form-encoded body only, the body's parameters.
/// MDES's bodies are JSON, which the body hash covers instead (the body-hash extension), so the
/// signer and verifier pass no body parameters; RFC 5849's own example does.
public enum OAuth1SignatureBaseString {
    public static func make(method: String, url: String, parameters: [(name: String, value: String)]) throws -> String {
        let components = try components(url)
        let all = try queryParameters(components) + parameters
        return [
            method.uppercased(),
            OAuth1PercentEncoding.encode(try baseStringURI(components)),
            OAuth1PercentEncoding.encode(normalizedParameters(all)),
        ].joined(separator: "&")
    }

    /// Section 3.4.1.2: scheme and host in lowercase, the port only when it is not the scheme's
    /// default, the path as sent ("/" when empty); no user, query or fragment.
    public static func baseStringURI(_ url: String) throws -> String {
        try baseStringURI(components(url))
    }

    /// Section 3.4.1.3.2: each name and value encoded (section 3.6), sorted by name and then by
    /// value, as bytes, joined as `name=value` pairs with "&".
    public static func normalizedParameters(_ parameters: [(name: String, value: String)]) -> String {
        parameters
            .map { (OAuth1PercentEncoding.encode($0.name), OAuth1PercentEncoding.encode($0.value)) }
            .sorted { lhs, rhs in
                lhs.0 == rhs.0
                    ? lhs.1.utf8.lexicographicallyPrecedes(rhs.1.utf8) : lhs.0.utf8.lexicographicallyPrecedes(rhs.0.utf8)
            }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    static func components(_ url: String) throws -> URLComponents {
        guard let components = URLComponents(string: url), let scheme = components.scheme, !scheme.isEmpty,
            let host = components.percentEncodedHost, !host.isEmpty
        else {
            throw ProvisioError(.oauthRequestInvalid, "The request URL has no scheme or no host.")
        }
        return components
    }

    static func baseStringURI(_ components: URLComponents) throws -> String {
        let scheme = (components.scheme ?? "").lowercased()
        let host = (components.percentEncodedHost ?? "").lowercased()
        var authority = host
        if let port = components.port, !((scheme == "http" && port == 80) || (scheme == "https" && port == 443)) {
            authority += ":\(port)"
        }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return "\(scheme)://\(authority)\(path)"
    }

    /// Section 3.4.1.3.1: the query as form encoding ("+" is a space), every pair decoded; a
    /// pair without "=" has an empty value.
    static func queryParameters(_ components: URLComponents) throws -> [(name: String, value: String)] {
        guard let query = components.percentEncodedQuery, !query.isEmpty else { return [] }
        return try query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = OAuth1PercentEncoding.decode(parts[0], plusIsSpace: true),
                let value = OAuth1PercentEncoding.decode(parts.count > 1 ? parts[1] : "", plusIsSpace: true)
            else {
                throw ProvisioError(.oauthRequestInvalid, "The request URL's query has a broken percent-encoding.")
            }
            return (name, value)
        }
    }
}
