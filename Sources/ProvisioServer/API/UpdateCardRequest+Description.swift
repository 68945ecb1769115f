import ProvisioAPI

/// A card update may carry the cardholder's phone and email in clear: describing it (a log
/// line, a test failure, the generated code's `ServerError` description, which quotes the
/// operation's input) names only the fields it sets.
extension Components.Schemas.UpdateCardRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        let fields: [(String, Bool)] = [
            ("expiry_month", expiryMonth != nil), ("expiry_year", expiryYear != nil),
            ("cardholder_name", cardholderName != nil), ("product_title", productTitle != nil),
            ("card_art_url", cardArtUrl != nil), ("cardholder_phone", cardholderPhone != nil),
            ("cardholder_email", cardholderEmail != nil),
        ]
        return "UpdateCardRequest(\(fields.filter(\.1).map(\.0).joined(separator: ", ")))"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
