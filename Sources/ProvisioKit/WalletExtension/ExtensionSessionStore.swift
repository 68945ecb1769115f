import Foundation
import ProvisioCore

/// What the UI extension stores after the cardholder signed in, for the non-UI extension: the
/// session's scope and expiry (Core's `ExtensionSession`) and the credential that calls Provisio
/// (a mobile session token). It lives in the shared keychain, never in App Group files.
public struct StoredExtensionSession: Codable, Sendable, Hashable, CustomStringConvertible {
    public var session: ExtensionSession
    public var credential: String

    public init(session: ExtensionSession, credential: String) {
        self.session = session
        self.credential = credential
    }

    public var description: String { "StoredExtensionSession(expiresAt: \(session.expiresAt), credential: redacted)" }
}

/// The shared store of the extension session.
public protocol ExtensionSessionStore: Sendable {
    func load() throws -> StoredExtensionSession?
    func save(_ session: StoredExtensionSession) throws
    func remove() throws
}
