import Foundation
import Testing

@testable import ProvisioServer

/// `MDESTimestamp` reads `IsoTimestamp` by hand. What it accepts, it reads to the same instant as
/// the `ISO8601DateFormatter` it replaced (kept here as the reference); what that formatter's
/// lenient parse also let through, it refuses.
@Suite struct MDESTimestampTests {
    /// The parser it replaced: a formatter per call, with and then without fraction digits.
    static func reference(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    @Test(arguments: [
        "2030-01-01T00:30:00Z", "2030-01-01T00:30:00z", "2026-07-04T12:09:56.123-07:00", "2030-01-01T00:30:00.1Z",
        "2030-01-01T00:30:00.12Z", "2030-01-01T00:30:00.123Z", "2030-01-01T00:30:00.999Z", "2030-01-01T00:30:00+01:00",
        "2030-01-01T00:30:00-01:30", "2030-01-01T00:30:00.5+01:00", "2030-01-01T00:30:00+00:00",
        "2030-01-01T00:30:00-00:00", "2030-01-01T00:30:00+14:00", "2030-01-01T00:30:00-12:00",
        "2030-01-01T00:30:00+23:59", "2024-02-29T23:59:59Z", "2000-02-29T00:00:00Z", "2100-02-28T00:00:00Z",
        "1969-12-31T23:59:59.5Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2030-12-31T23:59:59.999+05:30",
        // Within the grammar's spirit and accepted before: basic and hour-only offsets, more
        // fraction digits (cut to the millisecond, not rounded).
        "2030-01-01T00:30:00+0100", "2030-01-01T00:30:00-0730", "2030-01-01T00:30:00+01",
        "2030-01-01T00:30:00.123+01", "2030-01-01T00:30:00.5+0130", "2030-01-01T00:30:00.1234Z",
        "2030-01-01T00:30:00.9999Z", "2030-01-01T00:30:00.0005Z", "2030-01-01T00:30:00.12345678Z",
    ])
    func readsAsTheFormatterDid(_ text: String) throws {
        let date = try #require(MDESTimestamp.parse(text), "\(text)")
        let reference = try #require(Self.reference(text), "\(text)")
        // The same Double, not merely a close one.
        #expect(date.timeIntervalSinceReferenceDate.bitPattern == reference.timeIntervalSinceReferenceDate.bitPattern)
    }

    @Test func knownInstants() {
        #expect(MDESTimestamp.parse("2030-01-01T00:30:00Z") == Date(timeIntervalSince1970: 1_893_457_800))
        #expect(MDESTimestamp.parse("2030-01-01T00:30:00.123-01:00") == Date(timeIntervalSince1970: 1_893_461_400.123))
        #expect(MDESTimestamp.parse("2030-01-01T00:30:00.5+01:30") == Date(timeIntervalSince1970: 1_893_452_400.5))
        #expect(MDESTimestamp.parse("1969-12-31T23:59:59.5Z") == Date(timeIntervalSince1970: -0.5))
    }

    @Test(arguments: [
        // Refused before too: outside 20 to 29 characters, not ASCII, not the grammar.
        "", "2030-01-01T00:30Z", "2030-01-01T00:30:00", "2030-01-01T00:30:00.5", "2030-01-01T00:30:00.123456789Z",
        "2030-01-01T00:30:00.12345+01:00", "2030-01-01t00:30:00Z", "2030-01-01 00:30:00Z", "20300101T003000Z",
        "+2030-01-01T00:30:00Z", "2030-1-01T00:30:00Z", "2030-01-01T0:30:00Z", "2030-01-01T00:30:00.Z",
        "2030-01-01T00:30:00,5Z", "2030-01-01T00:30:00.1a3Z", "2030-13-01T00:30:00Z", "2030-00-01T00:30:00Z",
        "2030-01-00T00:30:00Z", "2030-01-32T00:30:00Z", "2030-01-01T00:60:00Z", "2030-01-01T23:59:60Z",
        "2030-01-01T00:30:00Ｚ", "２030-01-01T00:30:00Z",
        // Let through by the formatter's lenient parse, refused now.
        "2030-02-30T00:30:00Z", "2023-02-29T00:00:00Z", "2030-04-31T00:00:00Z", "2030-01-01T24:00:00Z",
        "2030-01-01T00:30:00+24:00", "2030-01-01T00:30:00+99:99", "2030-01-01T00:30:00+01:60", "2030-01-01T00:30:00+1:00",
        "2030-01-01T00:30:00+01:0", "2030-01-01T00:30:00+01:00:00", "2030-01-01T00:30:00ZZ", "2030-01-01T00:30:00GMT",
        "2030-01-01T00:30:00UTC", " 2030-01-01T00:30:00Z", "2030-01-01T00:30:00Z ", "2030-01-01T00:30:00.-1Z",
        "2030-01-01T00:30:00+", "2030-01-01T00:30:00+01:",
    ])
    func refuses(_ text: String) {
        #expect(MDESTimestamp.parse(text) == nil, "\(text)")
    }
}
