import Foundation

/// Who made a change, as MDES's `AuditInfo` wants it: `UserId` (4 to 50 characters), `UserName`
/// and `Organization` (4 to 200). The server fills it from the request's actor: the operator, or
/// the API key, and the tenant.
public struct MDESAuditInfo: Sendable, Equatable {
    public let userID: String
    public let userName: String
    public let organization: String

    /// Each value is trimmed to MDES's maximum and padded to its minimum of four characters
    /// (an id such as `sys` would otherwise be refused).
    public init(userID: String, userName: String, organization: String) {
        self.userID = Self.fit(userID, maximum: 50)
        self.userName = Self.fit(userName, maximum: 200)
        self.organization = Self.fit(organization, maximum: 200)
    }

    static func fit(_ text: String, maximum: Int) -> String {
        let cut = String(text.prefix(maximum))
        return cut.count >= 4 ? cut : cut + String(repeating: "_", count: 4 - cut.count)
    }
}
