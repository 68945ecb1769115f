import Testing

@testable import ProvisioCore

@Suite struct CardholderNameTests {
    @Test func normalisesWhitespaceAndUnicode() throws {
        #expect(try CardholderName("  Jane \t  Appleseed\n").value == "Jane Appleseed")
        // "e" + combining acute becomes the single precomposed "é" (NFC).
        let decomposed = try CardholderName("Ren\u{0065}\u{0301}e")
        #expect(decomposed.value == "Ren\u{00E9}e")
        #expect(decomposed.value.unicodeScalars.count == 5)  // 6 before NFC
    }

    @Test func refusesEmptyControlAndOverlong() {
        for input in ["", "   ", "\n\t"] {
            #expect((#expect(throws: ProvisioError.self) { try CardholderName(input) })?.code == .invalidCardholderName)
        }
        #expect(
            (#expect(throws: ProvisioError.self) { try CardholderName("Jane\u{0007}Doe") })?.message.contains("control") == true)
        #expect(throws: ProvisioError.self) { try CardholderName(String(repeating: "a", count: 65)) }
        #expect(throws: Never.self) { try CardholderName(String(repeating: "a", count: 64)) }
    }

    /// Printable ASCII skips the normalisation (it is already NFC); the characters just outside
    /// that range still take the full check.
    @Test func theASCIIPathAndItsEdges() throws {
        #expect(try CardholderName("  O'Brien-Smith   Jr. ").value == "O'Brien-Smith Jr.")
        for input in ["Jane\u{001F}Doe", "Jane\u{007F}Doe", "Zo\u{00EB}\u{0001}"] {
            #expect(
                (#expect(throws: ProvisioError.self) { try CardholderName(input) })?.message.contains("control") == true,
                "\(input.unicodeScalars.map(\.value))")
        }
        #expect(try CardholderName("Zoe\u{0308}\u{00A0}Tab").value == "Zo\u{00EB} Tab")
    }
}
