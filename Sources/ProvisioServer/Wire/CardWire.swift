import Foundation
import ProvisioCore

/// `POST /v1/cards`. Holds a raw PAN: describing it shows only the last four digits.
struct CreateCardBody: RequestBody, CustomStringConvertible, CustomReflectable {
    static let fields: Set<String> = [
        "customer_ref", "account_ref", "pan", "expiry_month", "expiry_year", "cardholder_name", "product_title", "network",
        "card_art_url",
    ]

    var customerRef: String
    var accountRef: String?
    var pan: String
    var expiryMonth: Int
    var expiryYear: Int
    var cardholderName: String
    var productTitle: String?
    var network: String?
    var cardArtURL: String?

    enum CodingKeys: String, CodingKey {
        case customerRef = "customer_ref"
        case accountRef = "account_ref"
        case pan
        case expiryMonth = "expiry_month"
        case expiryYear = "expiry_year"
        case cardholderName = "cardholder_name"
        case productTitle = "product_title"
        case network
        case cardArtURL = "card_art_url"
    }

    var newCard: CardService.NewCard {
        .init(
            customerRef: customerRef, accountRef: accountRef, pan: pan, expiryMonth: expiryMonth, expiryYear: expiryYear,
            cardholderName: cardholderName, productTitle: productTitle, network: network, cardArtURL: cardArtURL)
    }

    var description: String { "CreateCardBody(customer_ref: \(customerRef), pan: •••• \(pan.suffix(4)))" }
    var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}

/// A card on the wire: everything but the PAN.
struct CardWire: Encodable {
    var id: String
    var customerRef: String
    var accountRef: String?
    var last4: String
    var network: String
    var expiryMonth: Int
    var expiryYear: Int
    var cardholderName: String
    var productTitle: String?
    var cardArtURL: String?
    var primaryAccountIdentifier: String
    var status: String
    var createdAt: Date
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case customerRef = "customer_ref"
        case accountRef = "account_ref"
        case last4, network
        case expiryMonth = "expiry_month"
        case expiryYear = "expiry_year"
        case cardholderName = "cardholder_name"
        case productTitle = "product_title"
        case cardArtURL = "card_art_url"
        case primaryAccountIdentifier = "primary_account_identifier"
        case status
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ card: CardRecord) {
        self.id = card.id
        self.customerRef = card.customerRef
        self.accountRef = card.accountRef
        self.last4 = card.last4
        self.network = card.network.rawValue
        self.expiryMonth = card.expiryMonth
        self.expiryYear = card.expiryYear
        self.cardholderName = card.cardholderName
        self.productTitle = card.productTitle
        self.cardArtURL = card.cardArtURL
        self.primaryAccountIdentifier = card.primaryAccountIdentifier
        self.status = card.status.rawValue
        self.createdAt = card.createdAt
        self.updatedAt = card.updatedAt
    }
}

/// A card as the SDK sees it: only what Wallet and the Add button need.
struct MobileCardWire: Encodable {
    var id: String
    var last4: String
    var network: String
    var cardholderName: String
    var productTitle: String?
    var cardArtURL: String?
    var primaryAccountIdentifier: String

    enum CodingKeys: String, CodingKey {
        case id, last4, network
        case cardholderName = "cardholder_name"
        case productTitle = "product_title"
        case cardArtURL = "card_art_url"
        case primaryAccountIdentifier = "primary_account_identifier"
    }

    init(_ card: CardRecord) {
        self.id = card.id
        self.last4 = card.last4
        self.network = card.network.rawValue
        self.cardholderName = card.cardholderName
        self.productTitle = card.productTitle
        self.cardArtURL = card.cardArtURL
        self.primaryAccountIdentifier = card.primaryAccountIdentifier
    }
}

/// A list and the cursor of the next page (absent on the last page).
struct ListWire<Item: Encodable>: Encodable {
    var data: [Item]
    var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
    }
}
