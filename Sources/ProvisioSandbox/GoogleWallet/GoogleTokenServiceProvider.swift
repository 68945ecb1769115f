/// TapAndPay's `TOKEN_PROVIDER_*`, the `tokenServiceProvider` of a push-tokenize request.
/// Values from microG's `TapAndPay` and decompiled copies of Google's library, which agree
/// (docs/android-wallets.md §3). The sandbox's one card network plays each of them.
public enum GoogleTokenServiceProvider: Int, Sendable, Hashable, CaseIterable {
    case amex = 2
    case mastercard = 3
    case visa = 4
    case discover = 5
    case eftpos = 6
    case interac = 7
    case oberthur = 8
    case paypal = 9
    case jcb = 13
    case elo = 14
    case gemalto = 15
    case mir = 16

    /// The constant's name, `TOKEN_PROVIDER_VISA`: what Provisio's push data names
    /// (`token_service_provider`), and the issuer's app maps to the constant.
    public var constantName: String {
        let name: String
        switch self {
        case .amex: name = "AMEX"
        case .mastercard: name = "MASTERCARD"
        case .visa: name = "VISA"
        case .discover: name = "DISCOVER"
        case .eftpos: name = "EFTPOS"
        case .interac: name = "INTERAC"
        case .oberthur: name = "OBERTHUR"
        case .paypal: name = "PAYPAL"
        case .jcb: name = "JCB"
        case .elo: name = "ELO"
        case .gemalto: name = "GEMALTO"
        case .mir: name = "MIR"
        }
        return "TOKEN_PROVIDER_" + name
    }

    /// `TOKEN_PROVIDER_VISA`; nil for a name TapAndPay does not have.
    public init?(constantName: String) {
        guard let provider = Self.allCases.first(where: { $0.constantName == constantName }) else { return nil }
        self = provider
    }
}
