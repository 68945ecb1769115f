import ProvisioCore

/// The cardholder's mobile number, where a one-time code goes by SMS: E.164 (`+`, then 8 to 15
/// digits, the first not 0, nothing else). Stored sealed by the vault; only `masked` is ever
/// shown — in answers, the network's offers and webhooks.
public struct CardholderPhone: Sendable, Equatable {
    /// The number as given, e.g. `+14155550123`.
    public let value: String

    /// `invalid_parameter` unless `value` is E.164. The message never quotes the value.
    public init(_ value: String) throws {
        let digits = value.utf8.dropFirst()
        guard value.utf8.first == UInt8(ascii: "+"), (8...15).contains(digits.count),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            digits.first != UInt8(ascii: "0")
        else {
            throw ProvisioError(
                .invalidParameter,
                "cardholder_phone must be an E.164 number: + and 8 to 15 digits, the first not 0, "
                    + "without spaces or other signs (e.g. +447700900123).")
        }
        self.value = value
    }

    /// `+•• ••• ••• 1234`: always the same shape, so the mask tells nothing of the number's
    /// length or country; the last four digits show for numbers of 10 digits or more, the last
    /// two for shorter ones (four of eight would show half the number).
    public var masked: String {
        let digits = value.utf8.count - 1
        let shown = value.suffix(digits >= 10 ? 4 : 2)
        return "+•• ••• ••• " + String(repeating: "•", count: 4 - shown.count) + shown
    }
}
