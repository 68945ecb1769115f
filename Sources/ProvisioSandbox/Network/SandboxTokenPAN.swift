import ProvisioCore

/// Token PANs the sandbox network issues: 16 digits under a sandbox token BIN, Luhn valid, so
/// they look like the device PANs real token services put in a secure element.
public enum SandboxTokenPAN {
    /// A BIN range no issuer's card uses in the sandbox; real networks keep token BINs apart too.
    public static let defaultBIN = "489537"
    public static let length = 16

    /// A fresh random token PAN under `bin` (6 to 8 digits).
    public static func generate(bin: String = defaultBIN) throws -> PrimaryAccountNumber {
        guard (6...8).contains(bin.count), bin.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ProvisioError(.sandboxTokenBINInvalid, "A token BIN is 6 to 8 digits.")
        }
        var generator = SystemRandomNumberGenerator()
        var body = bin
        while body.count < length - 1 {
            body.append(Character(String(Int.random(in: 0...9, using: &generator))))
        }
        return try PrimaryAccountNumber(body + String(checkDigit(for: body)))
    }

    /// The Luhn check digit that completes `digits`.
    static func checkDigit(for digits: String) -> Int {
        var sum = 0
        // From the right, every first digit (the one next to the check digit) is doubled.
        for (index, character) in digits.reversed().enumerated() {
            var digit = character.wholeNumberValue ?? 0
            if index % 2 == 0 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return (10 - sum % 10) % 10
    }
}
