import Testing

@testable import ProvisioCore

@Suite struct PrimaryAccountNumberTests {
    @Test(arguments: ["4111111111111111", "5500000000000004", "378282246310005", "6011111111111117", "4000056655665556"])
    func acceptsValidNumbers(_ digits: String) throws {
        let pan = try PrimaryAccountNumber(digits)
        #expect(pan.unmaskedDigits == digits)
        #expect(pan.last4 == String(digits.suffix(4)))
    }

    @Test func stripsSpacesAndDashes() throws {
        let pan = try PrimaryAccountNumber(" 4111-1111 1111-1111 ")
        #expect(pan.unmaskedDigits == "4111111111111111")
        #expect(pan.bin == "411111")
    }

    @Test(arguments: [
        ("4111111111111112", "Luhn"),
        ("41111111111", "13 to 19"),
        ("41111111111111111111", "13 to 19"),
        ("4111a11111111111", "only digits"),
        ("", "13 to 19"),
        ("٤١١١١١١١١١١١١١١١", "only digits"),
    ])
    func refusesInvalidNumbers(_ input: String, _ reason: String) {
        let error = #expect(throws: ProvisioError.self) { try PrimaryAccountNumber(input) }
        #expect(error?.code == .invalidPAN)
        #expect(error?.message.contains(reason) == true)
    }

    @Test func neverPrintsTheDigits() throws {
        let pan = try PrimaryAccountNumber("4111111111111111")
        let renderings = [
            "\(pan)", String(describing: pan), String(reflecting: pan), pan.description, pan.debugDescription,
            {
                var out = ""; dump(pan, to: &out); return out
            }(),
            "\([pan])", "\(Optional(pan) as Any)",
        ]
        for text in renderings {
            #expect(!text.contains("4111111111111111"), "\(text)")
            #expect(!text.contains("411111"), "\(text)")
        }
        #expect(pan.description == "•••• 1111")
    }

    @Test func luhnAgreesWithKnownValues() {
        #expect(PrimaryAccountNumber.passesLuhn("79927398713"))
        #expect(!PrimaryAccountNumber.passesLuhn("79927398710"))
    }
}
