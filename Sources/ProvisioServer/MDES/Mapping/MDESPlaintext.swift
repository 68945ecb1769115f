import Foundation
import ProvisioJSON
import ProvisioMDESIssuerAPI

/// The decrypted `encryptedData`: the card, the token or the cardholder, and until when MDES
/// allows it to be used. Holds a PAN: its description shows none, and nothing stores it.
struct MDESPlaintext: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    struct CardAccount: Sendable {
        var accountNumber: String
        var expiryMonth: String?
        var expiryYear: String?
    }

    var validUntil: Date?
    var cardAccount: CardAccount?
    /// `tokenData`: the token's last four digits and expiry (its full number is not kept).
    var token: MDESTokenDetails?
    var phoneNumber: String?
    var email: String?

    /// JSON of `FundingAccountPlaintext`; anything else is indistinguishable from a payload that
    /// did not decrypt (`CRYPTOGRAPHY_ERROR`). A field out of the document's bounds is refused
    /// by its name under `encryptedData`, never with its value.
    init(decoding plaintext: Data) throws {
        let decoded: Components.Schemas.FundingAccountPlaintext
        let value: JSONValue
        do {
            value = try StrictJSONParser.parse(plaintext)
            decoded = try JSONDecoder().decode(Components.Schemas.FundingAccountPlaintext.self, from: plaintext)
        } catch {
            throw MDESRefusal.cryptography
        }
        try MDESFieldRules.plaintext.check(value, at: "encryptedData")
        if let text = decoded.dataValidUntilTimestamp {
            guard let date = MDESTimestamp.parse(text) else { throw MDESRefusal.format("dataValidUntilTimestamp") }
            validUntil = date
        }
        cardAccount = decoded.cardAccountData.map {
            CardAccount(accountNumber: $0.accountNumber, expiryMonth: $0.expiryMonth, expiryYear: $0.expiryYear)
        }
        token = try decoded.tokenData.map {
            try MDESTokenDetails(
                token: $0.token, month: $0.expiryMonth, year: $0.expiryYear, field: "encryptedData.tokenData.expiryMonth")
        }
        phoneNumber = decoded.accountHolderData?.accountHolderMobilePhoneNumber?.phoneNumber
        email = decoded.accountHolderData?.accountHolderEmailAddress
    }

    /// Past `dataValidUntilTimestamp` "all systems must reject" it ([PD]); more than 30 days
    /// ahead is beyond what the document allows.
    func checkValidity(now: Date) throws {
        guard let validUntil else { return }
        guard validUntil > now, validUntil <= now.addingTimeInterval(30 * 24 * 3600) else {
            throw MDESRefusal.value("dataValidUntilTimestamp")
        }
    }

    var description: String { "MDESPlaintext(card: \(cardAccount == nil ? "none" : "••••"))" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
