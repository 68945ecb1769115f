/// TapAndPay's `CARD_NETWORK_*`, the `network` of a push-tokenize request. Values from microG's
/// `TapAndPay` and decompiled copies of Google's library, which agree (docs/android-wallets.md §3).
public enum GoogleCardNetwork: Int, Sendable, Hashable, CaseIterable {
    case amex = 1
    case discover = 2
    case mastercard = 3
    case visa = 4
    case interac = 5
    case privateLabel = 6
    case eftpos = 7
    case maestro = 8
    case id = 9
    case quicpay = 10
    case jcb = 11
    case elo = 12
    case mir = 13

    /// The constant's name without its prefix: `VISA`, what Provisio's push data names
    /// (`network`), and the issuer's app maps to the constant.
    public var name: String {
        switch self {
        case .amex: "AMEX"
        case .discover: "DISCOVER"
        case .mastercard: "MASTERCARD"
        case .visa: "VISA"
        case .interac: "INTERAC"
        case .privateLabel: "PRIVATE_LABEL"
        case .eftpos: "EFTPOS"
        case .maestro: "MAESTRO"
        case .id: "ID"
        case .quicpay: "QUICPAY"
        case .jcb: "JCB"
        case .elo: "ELO"
        case .mir: "MIR"
        }
    }

    /// `VISA` or `CARD_NETWORK_VISA`; nil for a name TapAndPay does not have.
    public init?(name: String) {
        let bare = name.hasPrefix("CARD_NETWORK_") ? String(name.dropFirst("CARD_NETWORK_".count)) : name
        guard let network = Self.allCases.first(where: { $0.name == bare }) else { return nil }
        self = network
    }
}
