import Foundation
import OpenAPIRuntime

/// The document's `Timestamp`: ISO 8601 in UTC with whole seconds (`2026-11-22T04:10:07Z`).
/// The runtime's default transcoder also takes other offsets and fractions, so decoding with it
/// would not show that an answer keeps the convention; this one refuses anything else.
struct StrictTimestamp: DateTranscoder {
    struct Refusal: Error, CustomStringConvertible {
        let text: String
        var description: String { "\"\(text)\" is not an ISO 8601 UTC timestamp with whole seconds" }
    }

    func encode(_ date: Date) throws -> String {
        Self.formatter().string(from: date)
    }

    func decode(_ text: String) throws -> Date {
        // The formatter alone accepts offsets; the shape is checked first, then the calendar.
        guard text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil, let date = Self.formatter().date(from: text),
            Self.formatter().string(from: date) == text
        else { throw Refusal(text: text) }
        return date
    }

    /// A new formatter per use: `ISO8601DateFormatter` is not `Sendable`.
    private static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }
}
