import Foundation

/// MDES's timestamps: ISO 8601 extended, a `Z` or `±hh:mm` offset, 0 to 3 fraction digits
/// (`IsoTimestamp` in Provisio's document, 20 to 29 characters).
///
/// Read by hand: `ISO8601DateFormatter` (made per call, as before) was 9 % of an
/// `authorizeService`'s CPU. The forms the formatter accepted within that grammar are accepted
/// with the same instant: a lower-case `z`, an offset as `±hhmm` or `±hh`, and more than three
/// fraction digits, cut (not rounded) to the millisecond. What its lenient parse also let
/// through is refused now: a day the month does not have (Feb 30 became Mar 2), hour 24, an
/// offset beyond ±23:59, and text around the timestamp (`…ZZ`, `…GMT`, spaces). Dates are
/// proleptic Gregorian; the formatter switched to the Julian calendar before October 1582.
enum MDESTimestamp {
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard (20...29).contains(bytes.count) else { return nil }
        var reader = Reader(bytes: bytes)
        guard let year = reader.digits(4), reader.skip(UInt8(ascii: "-")), let month = reader.digits(2),
            reader.skip(UInt8(ascii: "-")), let day = reader.digits(2), reader.skip(UInt8(ascii: "T")),
            let hour = reader.digits(2), reader.skip(UInt8(ascii: ":")), let minute = reader.digits(2),
            reader.skip(UInt8(ascii: ":")), let second = reader.digits(2)
        else { return nil }
        var milliseconds = 0
        if reader.skip(UInt8(ascii: ".")) {
            var count = 0
            while let digit = reader.digit() {
                if count < 3 { milliseconds = milliseconds * 10 + digit }
                count += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { milliseconds *= 10 }
        }
        guard let offsetMinutes = reader.offset(), reader.atEnd else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
            second < 60
        else { return nil }
        let days = Int64(daysFromEpoch(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        // As the formatter made it: milliseconds since 1970 as a Double, divided by 1000.
        return Date(timeIntervalSince1970: Double(seconds * 1_000 + Int64(milliseconds)) / 1_000)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date, proleptic Gregorian (Howard Hinnant's `days_from_civil`).
    private static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A cursor over the timestamp's bytes.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - UInt8(ascii: "0"))
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        /// `Z`, `z`, `±hh:mm`, `±hhmm` or `±hh`, as minutes east of UTC; nil for anything else.
        mutating func offset() -> Int? {
            if skip(UInt8(ascii: "Z")) || skip(UInt8(ascii: "z")) { return 0 }
            let sign: Int
            if skip(UInt8(ascii: "+")) {
                sign = 1
            } else if skip(UInt8(ascii: "-")) {
                sign = -1
            } else {
                return nil
            }
            guard let hours = digits(2), hours < 24 else { return nil }
            var minutes = 0
            if !atEnd {
                _ = skip(UInt8(ascii: ":"))
                guard let value = digits(2), value < 60 else { return nil }
                minutes = value
            }
            return sign * (hours * 60 + minutes)
        }
    }
}
