import Foundation
import ProvisioCore

/// An `application/x-www-form-urlencoded` body (or a query string), the way a browser sends a
/// form: `+` is a space, every value percent-decoded. A name given twice keeps its first value.
struct ConsoleForm: Sendable {
    private var values: [String: String] = [:]

    /// The most a console form may be; a browser's forms here are a few hundred bytes.
    static let maximumBytes = 16 * 1024

    init(encoded text: String) throws {
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : "") else {
                throw ProvisioError(.invalidRequest, "The form is not valid URL encoding.")
            }
            if values[name] == nil { values[name] = value }
        }
    }

    init(query: String?) throws {
        try self.init(encoded: query ?? "")
    }

    private static func decode(_ part: Substring) -> String? {
        String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The trimmed value, or nil when it is missing or empty.
    subscript(name: String) -> String? {
        guard let value = values[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// A value that must be there.
    func require(_ name: String) throws -> String {
        guard let value = self[name] else { throw ProvisioError(.invalidParameter, "\(name) is required.") }
        return value
    }

    /// The reason a person gives for a change: 3 to 500 characters, no control characters and
    /// no card number (it is stored and shown).
    func reason() throws -> String {
        let reason = try require("reason")
        guard (3...500).contains(reason.count),
            !reason.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) && $0 != "\n" && $0 != "\r" })
        else {
            throw ProvisioError(.invalidParameter, "The reason must be 3 to 500 characters without control characters.")
        }
        if CardNumberPattern.containsCardNumber(reason) {
            throw ProvisioError(.cardNumberInText, "The reason holds what looks like a card number; it must not.")
        }
        return reason
    }

    /// An optional whole number within `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw ProvisioError(
                .invalidParameter, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }
}
