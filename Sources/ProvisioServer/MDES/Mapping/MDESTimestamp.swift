import Foundation

/// MDES's timestamps: ISO 8601 extended, a `Z` or `±hh:mm` offset, 0 to 3 fraction digits.
enum MDESTimestamp {
    static func parse(_ text: String) -> Date? {
        guard (20...29).contains(text.count), text.allSatisfy({ $0.isASCII }) else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
