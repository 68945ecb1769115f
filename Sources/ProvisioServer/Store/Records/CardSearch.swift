/// What support searches cards by; set fields must all match.
public struct CardSearch: Sendable, Equatable {
    public var cardID: String?
    public var customerRef: String?
    public var last4: String?

    public init(cardID: String? = nil, customerRef: String? = nil, last4: String? = nil) {
        self.cardID = cardID
        self.customerRef = customerRef
        self.last4 = last4
    }

    public var isEmpty: Bool { cardID == nil && customerRef == nil && last4 == nil }
}
