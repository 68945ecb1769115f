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
    /// The first instant of the month after the expiry month, UTC.
    ///
    /// Counted in whole days from 1970-01-01 rather than through `Calendar`, which built a
    /// calendar and a time zone on every call (every provisioning request checks the expiry);
    /// a test compares both for every month the type admits.
    public var endOfValidity: Date {
        let (nextYear, nextMonth) = month == 12 ? (year + 1, 1) : (year, month + 1)
        return Date(timeIntervalSince1970: Double(Self.daysSinceEpoch(year: nextYear, month: nextMonth)) * 86_400)
    }

    /// Days from 1970-01-01 to the first day of `month` in `year` (proleptic Gregorian). Years
    /// are counted from March so that February, the one month of varying length, comes last.
    static func daysSinceEpoch(year: Int, month: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400  // 0...399
        let monthFromMarch = (month + 9) % 12  // March 0 ... February 11
        let dayOfYear = (153 * monthFromMarch + 2) / 5  // days before the month's first day
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468  // 719,468: days from 0000-03-01 to 1970-01-01
    }

    public func isExpired(at date: Date) -> Bool { date >= endOfValidity }

    /// Throws `card_expired` when the card is no longer valid at `date`.
    public func requireValid(at date: Date) throws {
        if isExpired(at: date) {
            throw ProvisioError(.cardExpired, "The card has expired: its expiry month is over.")
        }
    }
}
