/// One of the card's optional free-text fields (`product_title`, …) as a request gives it, and
/// where the record keeps it. `CardService` treats them all alike: trimmed, 1 to `maximum`
/// characters, no card number; so a new one needs no change to the service.
public struct CardText: Sendable {
    /// Its name in the API, for errors and the audit log.
    public var field: String
    public var maximum: Int
    public var keyPath: WritableKeyPath<CardRecord, String?> & Sendable
    /// As the request gave it, not yet trimmed.
    public var value: String

    public init(field: String, maximum: Int, keyPath: WritableKeyPath<CardRecord, String?> & Sendable, value: String) {
        self.field = field
        self.maximum = maximum
        self.keyPath = keyPath
        self.value = value
    }

    /// The value as stored: `invalid_parameter` or `card_number_in_text` if it may not be.
    func validated() throws -> String {
        try CardService.validateText(value, field: field, maximum: maximum)
    }
}
