import Foundation
import ProvisioCore

/// What the Samsung Pay SDK's `addCard(AddCardInfo(cardType, tokenizationProvider, cardDetail))`
/// takes from the issuer app (docs/samsung-wallet.md, "Push provisioning with the Samsung Pay
/// SDK"): the payload goes under `EXTRA_PROVISION_PAYLOAD` in `cardDetail`.
public struct SamsungPayPushData: Sendable, Equatable {
    /// `AddCardInfo`'s card types in Provisio's words; Samsung's string values are not public.
    public enum CardType: String, Sendable, Equatable {
        case credit = "CREDIT"
        case debit = "DEBIT"
        case creditDebit = "CREDIT_DEBIT"
    }

    public var cardType: CardType
    /// The SDK's `PROVIDER_*` value (`VI`, `MC`, `AX`, `DS`).
    public var tokenizationProvider: String
    /// Standard base64 of the network's opaque payment card (the compact JWE's bytes): the SDK
    /// refuses a Mastercard payload that does not decode as base64, so every network gets it so.
    public var provisionPayload: String
    public var displayName: String
    public var lastDigits: String

    /// The push data the network reads, in Samsung's shape. The card record does not say credit
    /// or debit, so the type is `CREDIT_DEBIT`.
    init(_ push: WalletPushData, network: PaymentNetwork) throws {
        guard let provider = Self.providers[network] else {
            throw ProvisioError(.unsupportedNetwork, "Samsung Pay push provisioning is not available for this card's network.")
        }
        cardType = .creditDebit
        tokenizationProvider = provider
        provisionPayload = Data(push.opaquePaymentCard.utf8).base64EncodedString()
        displayName = push.displayName
        lastDigits = push.lastDigits
    }

    /// `AddCardInfo.PROVIDER_*` per network (values from a public copy of the SDK's class; Maestro
    /// is Mastercard's). Samsung lists no provider for JCB or UnionPay.
    static let providers: [PaymentNetwork: String] = [
        .visa: "VI", .mastercard: "MC", .maestro: "MC", .amex: "AX", .discover: "DS",
    ]
}
