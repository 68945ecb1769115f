import Foundation

/// One card in Samsung Wallet as `getAllCards` and `addCard`'s `onSuccess` hand it to the issuer's
/// app: Samsung's card id, its state, and its bundle's details (`last4Fpan`, `last4Dpan`,
/// `cardType`, `issuerName`, `deviceType`: key strings from Samsung's Flutter plugin;
/// docs/samsung-wallet.md). No card number: the last four digits of the card and of the token.
public struct SamsungCard: Sendable, Hashable {
    public static let last4FPANKey = "last4Fpan"
    public static let last4DPANKey = "last4Dpan"
    public static let cardTypeKey = "cardType"
    public static let issuerNameKey = "issuerName"
    public static let deviceTypeKey = "deviceType"

    /// Samsung Wallet's own id of the card.
    public let cardID: String
    public internal(set) var cardStatus: SamsungCardState
    public internal(set) var last4FPAN: String
    public let last4DPAN: String
    public let cardType: SamsungCardType
    public let issuerName: String
    public let deviceType: SamsungDeviceType
    /// The provider the add named (the app knows it; kept to pick the app-to-app form).
    public let tokenizationProvider: SamsungTokenizationProvider

    /// The wallet's own knowledge of the card, which it does not hand to the app.
    let networkTokenRef: String
    let primaryAccountIdentifier: String
    let fundingExpiry: String?

    /// The card's bundle (`Card.getCardInfo()`), under Samsung's keys.
    public var cardInfo: [String: String] {
        [
            Self.last4FPANKey: last4FPAN, Self.last4DPANKey: last4DPAN, Self.cardTypeKey: cardType.rawValue,
            Self.issuerNameKey: issuerName, Self.deviceTypeKey: deviceType.rawValue,
        ]
    }
}
