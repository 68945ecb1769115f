import ProvisioCore

/// What tokens are looked up by, by support (the console) and by the issuer's backend
/// (`GET /v1/tokens`); set fields must all match. `last4` matches the card's last four digits
/// or the token's (Wallet shows the latter as the device account number).
public struct TokenSearch: Sendable, Equatable {
    public var cardID: String?
    public var last4: String?
    public var customerRef: String?
    public var deviceAccountIdentifier: String?
    public var networkTokenRef: String?
    public var state: TokenState?

    public init(
        cardID: String? = nil, last4: String? = nil, customerRef: String? = nil, deviceAccountIdentifier: String? = nil,
        networkTokenRef: String? = nil, state: TokenState? = nil
    ) {
        self.cardID = cardID
        self.last4 = last4
        self.customerRef = customerRef
        self.deviceAccountIdentifier = deviceAccountIdentifier
        self.networkTokenRef = networkTokenRef
        self.state = state
    }

    public var isEmpty: Bool {
        cardID == nil && last4 == nil && customerRef == nil && deviceAccountIdentifier == nil && networkTokenRef == nil
            && state == nil
    }
}
