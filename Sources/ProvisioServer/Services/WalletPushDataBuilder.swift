import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto

/// Builds Google Pay / Samsung Pay push-tokenize data. The opaque payment card is a JWE
/// (ECDH-ES, A256GCM) to the card network's encryption key — the sandbox network's by default —
/// around Provisio's card JSON: `{"fpan", "expiry_month", "expiry_year", "cardholder_name",
/// "wallet", "card_id", "issued_at"}`.
public struct WalletPushDataBuilder: Sendable {
    public let networkKey: P256.KeyAgreement.PublicKey
    public let networkKeyID: String

    public init(networkKey: P256.KeyAgreement.PublicKey, networkKeyID: String) {
        self.networkKey = networkKey
        self.networkKeyID = networkKeyID
    }

    struct OpaqueCard: Encodable {
        var fpan: String
        var expiryMonth: Int
        var expiryYear: Int
        var cardholderName: String
        var wallet: String
        var cardID: String
        var issuedAt: String

        enum CodingKeys: String, CodingKey {
            case fpan
            case expiryMonth = "expiry_month"
            case expiryYear = "expiry_year"
            case cardholderName = "cardholder_name"
            case wallet
            case cardID = "card_id"
            case issuedAt = "issued_at"
        }
    }

    func build(card: CardRecord, pan: PrimaryAccountNumber, wallet: Wallet, userAddress: UserAddress?, at time: Date) throws
        -> WalletPushData
    {
        guard let names = Self.networkNames[card.network] else {
            throw ProvisioError(.unsupportedNetwork, "Push provisioning is not available for this card's network.")
        }
        let opaque = OpaqueCard(
            fpan: pan.unmaskedDigits, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear,
            cardholderName: card.cardholderName, wallet: wallet.rawValue, cardID: card.id,
            issuedAt: time.formatted(.iso8601))
        let plaintext = try JSONCoding.encoder.encode(opaque)
        let jwe = try JWEEncrypter(recipient: networkKey, keyID: networkKeyID).encrypt(plaintext, contentType: "application/json")
        return WalletPushData(
            opaquePaymentCard: jwe,
            displayName: card.productTitle ?? "\(names.display) •••• \(card.last4)",
            lastDigits: card.last4,
            network: names.network,
            tokenServiceProvider: names.provider,
            userAddress: try (userAddress ?? UserAddress(name: card.cardholderName)).validated())
    }

    /// TapAndPay's card-network and token-service-provider names per network.
    static let networkNames: [PaymentNetwork: (network: String, provider: String, display: String)] = [
        .visa: ("VISA", "TOKEN_PROVIDER_VISA", "Visa"),
        .mastercard: ("MASTERCARD", "TOKEN_PROVIDER_MASTERCARD", "Mastercard"),
        .maestro: ("MASTERCARD", "TOKEN_PROVIDER_MASTERCARD", "Maestro"),
        .amex: ("AMEX", "TOKEN_PROVIDER_AMEX", "American Express"),
        .discover: ("DISCOVER", "TOKEN_PROVIDER_DISCOVER", "Discover"),
        .jcb: ("JCB", "TOKEN_PROVIDER_JCB", "JCB"),
    ]
}
