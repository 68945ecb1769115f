import Foundation

/// What the UI (authorization) extension leaves for the non-UI one after the cardholder signs in:
/// which accounts the sign-in covers and until when. The token itself is a secret ProvisioKit
/// keeps next to this in the shared keychain; it never enters Core or the App Group.
public struct ExtensionSession: Codable, Hashable, Sendable {
    /// The issuer / consumer pairs the sign-in covers.
    public var accountIDs: Set<ExtensionAccount.ID>
    /// The first instant the session no longer counts.
    public var expiresAt: Date

    public init(accountIDs: Set<ExtensionAccount.ID>, expiresAt: Date) {
        self.accountIDs = accountIDs
        self.expiresAt = expiresAt
    }

    /// A session for one account.
    public init(accountID: ExtensionAccount.ID, expiresAt: Date) {
        self.init(accountIDs: [accountID], expiresAt: expiresAt)
    }

    /// Whether the session still counts at `now` (expiry exclusive).
    public func isValid(at now: Date) -> Bool { now < expiresAt }

    /// Whether the session counts at `now` for `accountID`.
    public func authorizes(_ accountID: ExtensionAccount.ID, at now: Date) -> Bool {
        isValid(at: now) && accountIDs.contains(accountID)
    }

    /// Whether the session counts at `now` for every account of `configuration` that has cards.
    public func authorizes(_ configuration: ExtensionConfiguration, at now: Date) -> Bool {
        isValid(at: now) && configuration.accounts.allSatisfy { $0.cards.isEmpty || accountIDs.contains($0.id) }
    }

    /// The bytes ProvisioKit stores (stable JSON).
    public func encoded() throws -> Data { try ExtensionJSON.encoder().encode(self) }

    /// Reads stored bytes; `extension_session_unreadable` if they are not a session.
    public static func decode(from data: Data) throws -> ExtensionSession {
        try ExtensionJSON.decode(ExtensionSession.self, from: data, code: .extensionSessionUnreadable, what: "extension session")
    }
}
