import Foundation
import ProvisioCore

/// The `Authorization: OAuth …` header of RFC 5849 section 3.5.1: `OAuth` and comma-separated
/// `name="value"` pairs, names and values percent-encoded (section 3.6).
struct OAuth1AuthorizationHeader {
    static let scheme = "OAuth"
    /// The most parameters a header may carry; more is not a request anyone sends.
    static let maximumParameterCount = 32

    var parameters: [(name: String, value: String)]

    init(parameters: [(name: String, value: String)]) {
        self.parameters = parameters
    }

    /// The header value, parameters in the order given.
    func rendered() -> String {
        Self.scheme + " "
            + parameters.map { "\(OAuth1PercentEncoding.encode($0.name))=\"\(OAuth1PercentEncoding.encode($0.value))\"" }
            .joined(separator: ",")
    }

    /// Reads a header value; refuses another scheme, a pair that is not `name="value"`, a broken
    /// encoding and a parameter given twice (which would leave its meaning to the reader).
    init(parsing header: String) throws {
        func malformed(_ why: String) -> ProvisioError { ProvisioError(.oauthHeaderMalformed, why) }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.firstIndex(of: " "),
            trimmed[..<space].caseInsensitiveCompare(Self.scheme) == .orderedSame
        else { throw malformed("The Authorization header is not of the OAuth scheme.") }
        let items = trimmed[trimmed.index(after: space)...].split(separator: ",", omittingEmptySubsequences: false)
        guard items.count <= Self.maximumParameterCount else { throw malformed("The OAuth header has too many parameters.") }
        var seen = Set<String>()
        var parameters: [(name: String, value: String)] = []
        for item in items {
            let pair = item.trimmingCharacters(in: .whitespaces)
            guard let equals = pair.firstIndex(of: "=") else { throw malformed("An OAuth parameter is not name=\"value\".") }
            let quoted = pair[pair.index(after: equals)...]
            guard quoted.count >= 2, quoted.first == "\"", quoted.last == "\"",
                !quoted.dropFirst().dropLast().contains("\""),
                let name = OAuth1PercentEncoding.decode(pair[..<equals], plusIsSpace: false), !name.isEmpty,
                let value = OAuth1PercentEncoding.decode(quoted.dropFirst().dropLast(), plusIsSpace: false)
            else { throw malformed("An OAuth parameter is not name=\"value\" with percent-encoding.") }
            guard seen.insert(name).inserted else { throw malformed("An OAuth parameter appears twice.") }
            parameters.append((name, value))
        }
        self.parameters = parameters
    }

    subscript(name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }
}
