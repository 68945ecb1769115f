/// The card networks Provisio knows, derived from the BIN when the issuer does not say.
public enum PaymentNetwork: String, Codable, Hashable, Sendable, CaseIterable {
    case visa
    case mastercard
    case amex
    case discover
    case jcb
    case unionPay = "unionpay"
    case maestro
    case unknown

    /// Derives the network from the leading digits (public IIN ranges).
    public init(bin: String) {
        let prefix = bin.prefix(6)
        func starts(_ range: ClosedRange<Int>, digits: Int) -> Bool {
            guard prefix.count >= digits, let value = Int(prefix.prefix(digits)) else { return false }
            return range.contains(value)
        }
        if starts(4...4, digits: 1) {
            self = .visa
        } else if starts(51...55, digits: 2) || starts(2221...2720, digits: 4) {
            self = .mastercard
        } else if starts(34...34, digits: 2) || starts(37...37, digits: 2) {
            self = .amex
        } else if starts(6011...6011, digits: 4) || starts(65...65, digits: 2) || starts(644...649, digits: 3)
            || starts(622126...622925, digits: 6)
        {
            self = .discover
        } else if starts(3528...3589, digits: 4) {
            self = .jcb
        } else if starts(62...62, digits: 2) {
            self = .unionPay
        } else if starts(50...50, digits: 2) || starts(56...58, digits: 2) || starts(6...6, digits: 1) {
            self = .maestro
        } else {
            self = .unknown
        }
    }
}
