import Foundation

/// The parameters of an `Authorization: OAuth k="v", …` header (RFC 5849 §3.5.1), decoded.
/// A parameter given twice, an unquoted value or a bad escape makes the header unreadable.
struct OAuthAuthorizationHeader: Sendable, Hashable {
    let parameters: [String: String]

    init?(_ header: String) {
        let trimmed = header.drop(while: { $0 == " " })
        guard trimmed.lowercased().hasPrefix("oauth ") else { return nil }
        var parameters: [String: String] = [:]
        for item in trimmed.dropFirst(6).split(separator: ",", omittingEmptySubsequences: true) {
            let pair = item.trimmingCharacters(in: .whitespaces)
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            let rawName = String(pair[..<equals])
            var rawValue = pair[pair.index(after: equals)...]
            guard rawValue.count >= 2, rawValue.first == "\"", rawValue.last == "\"" else { return nil }
            rawValue = rawValue.dropFirst().dropLast()
            guard let name = OAuthPercentEncoding.decode(rawName), let value = OAuthPercentEncoding.decode(String(rawValue)),
                parameters[name] == nil
            else { return nil }
            parameters[name] = value
        }
        self.parameters = parameters
    }
}
