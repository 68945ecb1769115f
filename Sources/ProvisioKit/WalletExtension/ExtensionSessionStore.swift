import Foundation
import ProvisioCore

/// One signed-in account of the Wallet extension: the issuer / consumer pairs one sign-in covers
/// and until when (Core's `ExtensionSession`), the credential that calls Provisio for them (a
/// mobile session token) and, when it is not the extension's own `ServerURL`, the Provisio that
/// serves them. An app serving several issuers (or several consumers under separate logins) keeps
/// one per sign-in; each card's account picks the credential and the server of its calls.
public struct StoredExtensionAccount: Codable, Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The issuer / consumer pairs this sign-in covers, and its expiry.
    public var session: ExtensionSession
    /// The mobile session token for Provisio's `/v1/mobile/` routes. Never printed.
    public var credential: String
    /// Provisio's base URL for these accounts; nil: the extension's `ServerURL`.
    public var serverURL: URL?

    public init(session: ExtensionSession, credential: String, serverURL: URL? = nil) {
        self.session = session
        self.credential = credential
        self.serverURL = serverURL
    }

    public init(accountIDs: Set<ExtensionAccount.ID>, credential: String, expiresAt: Date, serverURL: URL? = nil) {
        self.init(
            session: ExtensionSession(accountIDs: accountIDs, expiresAt: expiresAt), credential: credential,
            serverURL: serverURL)
    }

    /// The issuer / consumer pairs this sign-in covers.
    public var accountIDs: Set<ExtensionAccount.ID> { session.accountIDs }

    /// Whether this sign-in counts for `accountID` at `now`.
    public func authorizes(_ accountID: ExtensionAccount.ID, at now: Date) -> Bool {
        session.authorizes(accountID, at: now)
    }

    public var description: String {
        let accounts = session.accountIDs.map(\.description).sorted().joined(separator: ", ")
        let server = serverURL.map { ", serverURL: \($0.absoluteString)" } ?? ""
        return "StoredExtensionAccount(accounts: [\(accounts)], expiresAt: \(session.expiresAt)\(server), credential: redacted)"
    }

    /// `dump` and debuggers see the same redacted fields as `description`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "session": session, "serverURL": serverURL as Any, "credential": "redacted",
            ])
    }
}

/// What the UI extension stores after the cardholder signed in, for the non-UI extension: every
/// signed-in account (``StoredExtensionAccount``), each with its own credential, server and
/// expiry. It lives in the shared keychain, never in App Group files.
///
/// An issuer / consumer pair belongs to at most one stored account: signing in to it again
/// replaces it (``signIn(_:)``), signing out removes it alone (``signOut(_:)``).
///
/// Stored bytes of the single-account form of earlier versions (`{"session", "credential"}`)
/// still read, as one account; the next save writes the current form.
public struct StoredExtensionSession: Codable, Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The form this SDK writes.
    public static let currentVersion = 2

    /// The signed-in accounts, oldest sign-in first.
    public var accounts: [StoredExtensionAccount]

    public init(accounts: [StoredExtensionAccount] = []) {
        self.accounts = accounts
    }

    /// One account (the single-account form).
    public init(session: ExtensionSession, credential: String, serverURL: URL? = nil) {
        self.init(accounts: [StoredExtensionAccount(session: session, credential: credential, serverURL: serverURL)])
    }

    /// Whether no account is signed in.
    public var isEmpty: Bool { accounts.isEmpty }

    /// The account whose credential serves `accountID` at `now` (the one expiring last when
    /// several would), or nil when none is valid for it.
    public func account(for accountID: ExtensionAccount.ID, at now: Date) -> StoredExtensionAccount? {
        accounts.filter { $0.authorizes(accountID, at: now) }.max { $0.session.expiresAt < $1.session.expiresAt }
    }

    /// Every pair some valid account covers at `now`, as one Core session (expiring with the
    /// first of them), for `ExtensionStatusResolver` and `AddRequestPlanner`; nil when none is valid.
    public func session(at now: Date) -> ExtensionSession? {
        let valid = accounts.filter { $0.session.isValid(at: now) }
        guard let expiresAt = valid.map(\.session.expiresAt).min() else { return nil }
        return ExtensionSession(accountIDs: valid.reduce(into: []) { $0.formUnion($1.accountIDs) }, expiresAt: expiresAt)
    }

    /// Adds `account`; the pairs it covers leave every other account (an account left with none
    /// is dropped), so a second sign-in to the same issuer / consumer replaces the first.
    public mutating func signIn(_ account: StoredExtensionAccount) {
        accounts = accounts.compactMap { existing in
            var existing = existing
            existing.session.accountIDs.subtract(account.accountIDs)
            return existing.accountIDs.isEmpty ? nil : existing
        }
        accounts.append(account)
    }

    /// Removes `accountID` from whichever account covers it (dropping an account left with none).
    public mutating func signOut(_ accountID: ExtensionAccount.ID) {
        accounts = accounts.compactMap { existing in
            var existing = existing
            existing.session.accountIDs.remove(accountID)
            return existing.accountIDs.isEmpty ? nil : existing
        }
    }

    // MARK: - Stored form

    private enum CodingKeys: String, CodingKey {
        case version, accounts
        // The single-account form of earlier versions.
        case session, credential
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.accounts) {
            self.accounts = try container.decode([StoredExtensionAccount].self, forKey: .accounts)
        } else {
            self.accounts = [
                StoredExtensionAccount(
                    session: try container.decode(ExtensionSession.self, forKey: .session),
                    credential: try container.decode(String.self, forKey: .credential))
            ]
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.currentVersion, forKey: .version)
        try container.encode(accounts, forKey: .accounts)
    }

    /// The bytes a store keeps (the keychain's JSON form since the first version).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads stored bytes, current or single-account form; `extension_session_unreadable` otherwise.
    public static func decode(from data: Data) throws -> StoredExtensionSession {
        do {
            return try JSONDecoder().decode(StoredExtensionSession.self, from: data)
        } catch {
            throw ProvisioError(.extensionSessionUnreadable, "The stored extension session is not readable.")
        }
    }

    public var description: String {
        "StoredExtensionSession(\(accounts.map(\.description).joined(separator: ", ")))"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["accounts": accounts])
    }
}

/// The shared store of the extension session (every signed-in account, one value).
public protocol ExtensionSessionStore: Sendable {
    func load() throws -> StoredExtensionSession?
    func save(_ session: StoredExtensionSession) throws
    func remove() throws
}

extension ExtensionSessionStore {
    /// Adds or replaces one account (``StoredExtensionSession/signIn(_:)``), keeping the others.
    /// Stored bytes that no longer read are replaced; a store that fails otherwise rethrows.
    public func signIn(_ account: StoredExtensionAccount) throws {
        var stored = try loadForUpdate()
        stored.signIn(account)
        try save(stored)
    }

    /// Signs `accountID` out, keeping the other accounts; the value is removed with the last one.
    public func signOut(_ accountID: ExtensionAccount.ID) throws {
        var stored = try loadForUpdate()
        stored.signOut(accountID)
        if stored.isEmpty { try remove() } else { try save(stored) }
    }

    /// Signs every account out.
    public func signOutAll() throws {
        try remove()
    }

    private func loadForUpdate() throws -> StoredExtensionSession {
        do {
            return try load() ?? StoredExtensionSession()
        } catch let error as ProvisioError where error.code == .extensionSessionUnreadable {
            return StoredExtensionSession()
        }
    }
}
