import Foundation

/// A card's expiry month. A card is valid through the last moment of its expiry month (UTC).
public struct CardExpiry: Hashable, Sendable, CustomStringConvertible {
    public let month: Int
    /// Four-digit year.
    public let year: Int

    public init(month: Int, year: Int) throws {
        guard (1...12).contains(month) else {
            throw ProvisioError(.invalidExpiry, "The expiry month must be between 1 and 12.")
        }
        let fullYear = (0...99).contains(year) ? 2000 + year : year
        guard (2000...2099).contains(fullYear) else {
            throw ProvisioError(.invalidExpiry, "The expiry year must be two digits or between 2000 and 2099.")
        }
        self.month = month
        self.year = fullYear
    }

    /// An optional expiry given as two optional fields (a change that may leave it alone):
    /// both or neither; one without the other is `invalid_expiry`.
    public static func optional(month: Int?, year: Int?) throws -> CardExpiry? {
        switch (month, year) {
        case (let month?, let year?): return try CardExpiry(month: month, year: year)
        case (nil, nil): return nil
        default: throw ProvisioError(.invalidExpiry, "expiry_month and expiry_year come together.")
        }
    }

    /// Parses Apple's `MM/YY` form (also accepts `MM/YYYY`).
    public init(slashed text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2 || parts[1].count == 4,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let month = Int(parts[0]), let year = Int(parts[1])
        else {
            throw ProvisioError(.invalidExpiry, "The expiry must be written MM/YY.")
        }
        try self.init(month: month, year: year)
    }

    /// `MM/YY`, as Apple's payload wants it.
    public var slashed: String { Self.twoDigits(month) + "/" + Self.twoDigits(year % 100) }
    /// `MMYY`, as the TAV signature input wants it.
    public var compact: String { Self.twoDigits(month) + Self.twoDigits(year % 100) }
    public var description: String { slashed }

    /// `String(format:)` goes through Foundation's formatter on every provisioning request; a
    /// number known to be 0...99 needs only its two digits.
    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }

    /// The first instant after the card stops being valid.
    public var endOfValidity: Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let nextMonth = month == 12 ? DateComponents(year: year + 1, month: 1) : DateComponents(year: year, month: month + 1)
        return calendar.date(from: nextMonth)!
    }

    public func isExpired(at date: Date) -> Bool { date >= endOfValidity }

    /// Throws `card_expired` when the card is no longer valid at `date`.
    public func requireValid(at date: Date) throws {
        if isExpired(at: date) {
            throw ProvisioError(.cardExpired, "The card has expired: its expiry month is over.")
        }
    }
}

extension ProvisioError.Code {
    public static let invalidExpiry = Self("invalid_expiry", status: .badRequest)
    public static let cardExpired = Self("card_expired", status: .unprocessableContent)
}
