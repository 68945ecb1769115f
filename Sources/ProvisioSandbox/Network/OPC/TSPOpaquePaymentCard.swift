import Foundation
import ProvisioCore

/// The card inside a TSP opaque payment card, as Provisio's server writes it
/// (`WalletPushDataBuilder`): `{"fpan", "expiry_month", "expiry_year", "cardholder_name",
/// "wallet", "card_id", "issued_at"}`. Read strictly: exactly these members, each of its type,
/// so a change on either side fails here rather than being guessed at.
///
/// Holds a card number: every description shows it masked.
public struct TSPOpaquePaymentCard: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    public let primaryAccountNumber: PrimaryAccountNumber
    public let expiry: CardExpiry
    public let cardholderName: CardholderName
    /// The wallet the issuer built the OPC for.
    public let wallet: Wallet
    /// The issuer's id of the card.
    public let cardID: String
    public let issuedAt: Date

    static let members = Set(Fields.CodingKeys.allCases.map(\.rawValue))

    init(json: Data) throws {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw Self.invalid("is not a JSON object")
        }
        let names = Set(object.keys)
        guard names == Self.members else {
            let missing = Self.members.subtracting(names).sorted()
            let unknown = names.subtracting(Self.members).sorted().map { String($0.prefix(32)) }
            var problems: [String] = []
            if !missing.isEmpty { problems.append("no " + missing.joined(separator: ", ")) }
            if !unknown.isEmpty { problems.append("unknown " + unknown.joined(separator: ", ")) }
            throw Self.invalid("has " + problems.joined(separator: " and "))
        }
        // The member names are checked; JSONDecoder now checks each member's type.
        guard let fields = try? JSONDecoder().decode(Fields.self, from: json) else {
            throw Self.invalid("has a member of the wrong type")
        }
        do {
            primaryAccountNumber = try PrimaryAccountNumber(fields.fpan)
            expiry = try CardExpiry(month: fields.expiryMonth, year: fields.expiryYear)
            cardholderName = try CardholderName(fields.cardholderName)
            wallet = try Wallet(wireName: fields.wallet)
        } catch let error as ProvisioError {
            // The core's message names the field, never its value.
            throw Self.invalid("has an invalid card (\(error.code.rawValue))")
        }
        cardID = fields.cardID
        guard !cardID.isEmpty else { throw Self.invalid("has an empty card_id") }
        guard let issuedAt = try? Date(fields.issuedAt, strategy: .iso8601) else {
            throw Self.invalid("has an issued_at that is not an ISO 8601 time")
        }
        self.issuedAt = issuedAt
    }

    public var description: String {
        "TSPOpaquePaymentCard(card: \(primaryAccountNumber.masked), expiry: \(expiry.slashed), wallet: \(wallet.rawValue), "
            + "card_id: \(cardID))"
    }

    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// The members, typed; `members` holds their wire names.
    private struct Fields: Decodable {
        var fpan: String
        var expiryMonth: Int
        var expiryYear: Int
        var cardholderName: String
        var wallet: String
        var cardID: String
        var issuedAt: String

        enum CodingKeys: String, CodingKey, CaseIterable {
            case fpan
            case expiryMonth = "expiry_month"
            case expiryYear = "expiry_year"
            case cardholderName = "cardholder_name"
            case wallet
            case cardID = "card_id"
            case issuedAt = "issued_at"
        }
    }

    private static func invalid(_ problem: String) -> ProvisioError {
        ProvisioError(.sandboxOpcInvalid, "The opaque payment card opened, but its card JSON \(problem).")
    }
}
