import ProvisioCore

/// `AddCardInfo.PROVIDER_*`: the token service provider an add names (string values from a
/// decompiled `AddCardInfo`, docs/samsung-wallet.md). `PROVIDER_ELO` and `PROVIDER_MADA` exist
/// in Samsung's reference, but their values are not public, so they are not here.
public enum SamsungTokenizationProvider: String, Sendable, Hashable, CaseIterable {
    case visa = "VI"
    case mastercard = "MC"
    case amex = "AX"
    case discover = "DS"
    case plcc = "PL"
    case gift = "GI"
    case loyalty = "LO"
    case gemalto = "GT"
    case mir = "MI"
    case napas = "NP"
    case pagobancomat = "PB"
    case paypal = "PP"

    /// The card networks whose cards this provider tokenizes, as the sandbox's network checks
    /// an add (empty: a provider the sandbox's network does not play).
    public var cardNetworks: Set<PaymentNetwork> {
        switch self {
        case .visa: [.visa]
        case .mastercard: [.mastercard, .maestro]
        case .amex: [.amex]
        case .discover: [.discover]
        default: []
        }
    }

    /// Samsung's constant, `PROVIDER_VISA`.
    public var constantName: String {
        switch self {
        case .visa: "PROVIDER_VISA"
        case .mastercard: "PROVIDER_MASTERCARD"
        case .amex: "PROVIDER_AMEX"
        case .discover: "PROVIDER_DISCOVER"
        case .plcc: "PROVIDER_PLCC"
        case .gift: "PROVIDER_GIFT"
        case .loyalty: "PROVIDER_LOYALTY"
        case .gemalto: "PROVIDER_GEMALTO"
        case .mir: "PROVIDER_MIR"
        case .napas: "PROVIDER_NAPAS"
        case .pagobancomat: "PROVIDER_PAGOBANCOMAT"
        case .paypal: "PROVIDER_PAYPAL"
        }
    }
}
