import ProvisioCore
import Testing

@Suite struct CardNumberPatternTests {
    @Test(arguments: [
        "4111111111111111", "Jane 4111 1111 1111 1111", "ref-4111-1111-1111-1111-x", "5555555555554444",
        "378282246310005", "abc6011111111111117def",
        // A Luhn-valid 13-digit window inside a longer run of digits.
        "99994111111111111",
    ])
    func findsCardNumbers(_ text: String) {
        #expect(CardNumberPattern.containsCardNumber(text))
    }

    @Test(arguments: [
        "Jane Appleseed", "cust_1", "411111111111", "cust-2024-000123", "4111/1111/1111/1111",
        "phone +1 415 555 0100", "",
    ])
    func leavesOtherTextAlone(_ text: String) {
        #expect(!CardNumberPattern.containsCardNumber(text))
    }

    @Test func aCardholderNameWithACardNumberIsRefused() {
        #expect(throws: ProvisioError.self) { try CardholderName("J 4111111111111111") }
        #expect((try? CardholderName("Jane 3rd")) != nil)
    }

    @Test func aPANStartingWithZeroIsRefused() {
        for pan in ["0000000000000000", "0000000000000", "0411111111111116"] {
            let error = #expect(throws: ProvisioError.self) { try PrimaryAccountNumber(pan) }
            #expect(error?.code == .invalidPAN)
        }
    }
}
