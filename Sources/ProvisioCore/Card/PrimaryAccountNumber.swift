/// A validated primary account number (PAN).
///
/// The digits are reachable only through `unmaskedDigits`, a name that stands out in review.
/// `description`, `debugDescription` and reflection all print the masked form so that a PAN
/// interpolated into a log line or an error by mistake shows only its last four digits.
public struct PrimaryAccountNumber: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// ISO/IEC 7812 allows 8 to 19 digits; payment cards in wallets use 13 to 19.
    public static let allowedLengths = 13...19

    public let unmaskedDigits: String

    /// Accepts digits with optional spaces or dashes as separators; checks length and Luhn.
    public init(_ raw: String) throws {
        var digits = ""
        digits.reserveCapacity(raw.utf8.count)
        for scalar in raw.unicodeScalars {
            switch scalar {
            case "0"..."9": digits.unicodeScalars.append(scalar)
            case " ", "-": continue
            default:
                throw ProvisioError(.invalidPAN, "The card number may contain only digits, spaces and dashes.")
            }
        }
        guard Self.allowedLengths.contains(digits.utf8.count) else {
            throw ProvisioError(
                .invalidPAN,
                "The card number must have \(Self.allowedLengths.lowerBound) to \(Self.allowedLengths.upperBound) digits."
            )
        }
        guard Self.passesLuhn(digits) else {
            throw ProvisioError(.invalidPAN, "The card number fails the Luhn check.")
        }
        // Major industry identifier 0 is never a payment card (and all zeros passes Luhn).
        guard digits.utf8.first != UInt8(ascii: "0") else {
            throw ProvisioError(.invalidPAN, "The card number cannot start with 0.")
        }
        self.unmaskedDigits = digits
    }

    public var last4: String { String(unmaskedDigits.suffix(4)) }

    /// The first six digits: enough to derive the network, never enough to identify a card.
    public var bin: String { String(unmaskedDigits.prefix(6)) }

    public var masked: String { "•••• \(last4)" }
    public var description: String { masked }
    public var debugDescription: String { "PrimaryAccountNumber(\(masked))" }
    public var customMirror: Mirror { Mirror(self, children: ["masked": masked]) }

    static func passesLuhn(_ digits: String) -> Bool {
        passesLuhn(digitValues: digits.utf8.map { $0 - UInt8(ascii: "0") })
    }

    /// The Luhn check over digit values (0–9), most significant first.
    static func passesLuhn(digitValues: some BidirectionalCollection<UInt8>) -> Bool {
        var sum = 0
        for (index, digit) in digitValues.reversed().enumerated() {
            var value = Int(digit)
            if index % 2 == 1 {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
        }
        return sum % 10 == 0
    }
}
