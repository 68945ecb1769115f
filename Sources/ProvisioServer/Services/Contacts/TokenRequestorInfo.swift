/// The wallet that asked for a token (Apple Pay, Google Pay, …), as the card network names it.
public struct TokenRequestorInfo: Sendable, Equatable {
    public var id: String
    public var name: String?

    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name
    }

    /// `invalid_parameter` or `card_number_in_text`: each 1 to 64 characters, no control character.
    public func validate() throws {
        try OTPDeviceInfo.validateIdentifier(id, field: "token_requestor.id")
        if let name { try OTPDeviceInfo.validateField(name, field: "token_requestor.name") }
    }
}
