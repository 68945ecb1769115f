import ProvisioCore

/// The words support reads for the wire's enums: a wallet by its product name, a device by
/// what the cardholder holds. Exhaustive switches, so a new wallet or device needs its words.
enum ConsoleWords {
    static func wallet(_ wallet: Wallet) -> String {
        switch wallet {
        case .applePay: "Apple Pay"
        case .googlePay: "Google Pay"
        case .samsungPay: "Samsung Pay"
        }
    }

    /// A network that did not say which device it was (the field is optional) reads as such.
    static func device(_ device: DeviceType?) -> String {
        switch device {
        case .phone: "phone"
        case .watch: "watch"
        case .tablet: "tablet"
        case nil: "unknown"
        }
    }
}
