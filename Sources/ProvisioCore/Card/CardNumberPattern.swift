/// Finds card numbers where none belongs: free text (names, references, identifiers) that
/// holds a run of 13 to 19 digits passing the Luhn check is refused, so a PAN pasted into the
/// wrong field never reaches the database or a log in clear. Spaces and dashes between digits
/// count as part of the run ("4111 1111 1111 1111"); any other character ends it.
public enum CardNumberPattern {
    /// True when `text` contains, inside one digit run, 13 to 19 consecutive digits that pass
    /// the Luhn check.
    public static func containsCardNumber(_ text: some StringProtocol) -> Bool {
        var run: [UInt8] = []
        for scalar in text.unicodeScalars {
            switch scalar {
            case "0"..."9":
                run.append(UInt8(scalar.value - 48))
            case " ", "-":
                continue
            default:
                if runHoldsCardNumber(run) { return true }
                run.removeAll(keepingCapacity: true)
            }
        }
        return runHoldsCardNumber(run)
    }

    private static func runHoldsCardNumber(_ digits: [UInt8]) -> Bool {
        guard digits.count >= PrimaryAccountNumber.allowedLengths.lowerBound else { return false }
        for length in PrimaryAccountNumber.allowedLengths where length <= digits.count {
            for start in 0...(digits.count - length)
            where PrimaryAccountNumber.passesLuhn(digitValues: digits[start..<(start + length)]) {
                return true
            }
        }
        return false
    }
}
