import Foundation
import Testing

@testable import ProvisioCore

@Suite struct CardExpiryTests {
    @Test func parsesAppleForm() throws {
        let expiry = try CardExpiry(slashed: "03/29")
        #expect(expiry.month == 3)
        #expect(expiry.year == 2029)
        #expect(expiry.slashed == "03/29")
        #expect(expiry.compact == "0329")
        #expect(try CardExpiry(slashed: "11/2031").year == 2031)
    }

    @Test func writesTwoDigitsForEveryMonthAndYear() throws {
        for year in [2000, 2001, 2009, 2010, 2031, 2099] {
            for month in 1...12 {
                let expiry = try CardExpiry(month: month, year: year)
                let mm = month < 10 ? "0\(month)" : "\(month)"
                let yy = year % 100 < 10 ? "0\(year % 100)" : "\(year % 100)"
                #expect(expiry.slashed == "\(mm)/\(yy)")
                #expect(expiry.compact == mm + yy)
                #expect(try CardExpiry(slashed: expiry.slashed) == expiry)
            }
        }
    }

    @Test(arguments: ["3/29", "13/29", "00/29", "03-29", "0329", "aa/bb", "03/2", "03/29/1", "", "٠٣/٢٩"])
    func refusesMalformed(_ text: String) {
        let error = #expect(throws: ProvisioError.self) { try CardExpiry(slashed: text) }
        #expect(error?.code == .invalidExpiry)
    }

    @Test func refusesOutOfRangeNumbers() {
        #expect(throws: ProvisioError.self) { try CardExpiry(month: 0, year: 2030) }
        #expect(throws: ProvisioError.self) { try CardExpiry(month: 12, year: 2100) }
        #expect(throws: ProvisioError.self) { try CardExpiry(month: 12, year: 1999) }
    }

    @Test func validThroughTheLastSecondOfTheMonthUTC() throws {
        let expiry = try CardExpiry(month: 12, year: 2026)
        let lastSecond = try Date("2026-12-31T23:59:59Z", strategy: .iso8601)
        let firstOfNext = try Date("2027-01-01T00:00:00Z", strategy: .iso8601)
        #expect(!expiry.isExpired(at: lastSecond))
        #expect(expiry.isExpired(at: firstOfNext))
        let error = #expect(throws: ProvisioError.self) { try expiry.requireValid(at: firstOfNext) }
        #expect(error?.code == .cardExpired)
    }

    @Test func endOfValidityMatchesTheGregorianCalendarForEveryMonthItAdmits() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for year in 2000...2099 {
            for month in 1...12 {
                let next = month == 12 ? DateComponents(year: year + 1, month: 1) : DateComponents(year: year, month: month + 1)
                let expected = try #require(calendar.date(from: next))
                let actual = try CardExpiry(month: month, year: year).endOfValidity
                #expect(actual == expected, "\(month)/\(year)")
            }
        }
        // Leap years by the century rules, and the epoch itself.
        #expect(CardExpiry.daysSinceEpoch(year: 1970, month: 1) == 0)
        #expect(CardExpiry.daysSinceEpoch(year: 2000, month: 3) - CardExpiry.daysSinceEpoch(year: 2000, month: 2) == 29)
        #expect(CardExpiry.daysSinceEpoch(year: 2100, month: 3) - CardExpiry.daysSinceEpoch(year: 2100, month: 2) == 28)
    }
}
