import Foundation
import ProvisioCore

/// The console's people: operators created by an admin or at the command line, signing in with
/// a password (bcrypt), holding an expiring session, locked for a while after too many wrong
/// passwords in a row.
public struct OperatorService: Sendable {
    public static let sessionPrefix = "prv_cs_"
    /// A session ends this long after sign-in, or after this long unused, whichever is first.
    public static let sessionLifetime: TimeInterval = 8 * 3600
    public static let idleTimeout: TimeInterval = 3600
    /// Wrong passwords in a row that lock an account, and for how long.
    public static let failuresBeforeLock = 5
    public static let lockDuration: TimeInterval = 15 * 60
    /// bcrypt reads at most 72 bytes; a longer password would be silently cut.
    public static let passwordBytes = 12...72

    let store: any OperatorStore
    let hasher: any PasswordHasher
    let clock: any TimeSource

    public init(store: any OperatorStore, hasher: any PasswordHasher, clock: any TimeSource) {
        self.store = store
        self.hasher = hasher
        self.clock = clock
    }

    /// Creates an operator; without a password one is generated. The password in the answer is
    /// the only copy.
    public func create(tenantID: String, email: String, role: OperatorRole, password: String?) async throws
        -> (record: OperatorRecord, password: String)
    {
        let email = try Self.normalized(email: email)
        let password = password ?? RandomToken.secret(prefix: "").prefix(24).description
        try Self.validate(password: password)
        guard try await store.operatorRecord(email: email) == nil else {
            throw ProvisioError(.operatorExists, "An operator with this email already exists.")
        }
        let record = OperatorRecord(
            id: RandomToken.identifier(prefix: "op_"), tenantID: tenantID, email: email, role: role,
            passwordHash: await hasher.hash(password), createdAt: clock.now())
        try await store.insertOperator(record)
        return (record, password)
    }

    public func operators(tenantID: String) async throws -> [OperatorRecord] {
        try await store.operators(tenantID: tenantID)
    }

    public func disable(id: String, tenantID: String) async throws -> OperatorRecord {
        guard let record = try await store.disableOperator(id: id, tenantID: tenantID, at: clock.now()) else {
            throw ProvisioError(.operatorNotFound, "The tenant has no operator with this id.")
        }
        return record
    }

    /// Checks the password and opens a session; the token in the answer goes in the cookie.
    /// A wrong email and a wrong password fail alike (and take as long); a locked or disabled
    /// account fails even with the right password.
    public func signIn(email: String, password: String) async throws -> (record: OperatorRecord, token: String) {
        let now = clock.now()
        let record = try await store.operatorRecord(email: (try? Self.normalized(email: email)) ?? "")
        guard let record else {
            _ = await hasher.verify(password, hash: Self.decoyHash)
            throw Self.signInFailed()
        }
        if let until = record.lockedUntil, until > now {
            throw ProvisioError(
                .signInLocked, "Too many wrong passwords; try again after \(until.formatted(.iso8601)) or ask an admin.")
        }
        guard await hasher.verify(password, hash: record.passwordHash), record.disabledAt == nil else {
            if record.disabledAt == nil {
                _ = try await store.recordFailedSignIn(
                    operatorID: record.id, lockAfter: Self.failuresBeforeLock,
                    lockedUntil: now.addingTimeInterval(Self.lockDuration),
                    at: now)
            }
            throw Self.signInFailed()
        }
        try await store.recordSignIn(operatorID: record.id, tenantID: record.tenantID, at: now)
        let token = RandomToken.secret(prefix: Self.sessionPrefix)
        try await store.insertConsoleSession(
            ConsoleSessionRecord(
                tokenHash: RandomToken.sha256Hex(token), operatorID: record.id, tenantID: record.tenantID, createdAt: now,
                expiresAt: now.addingTimeInterval(Self.sessionLifetime), lastSeenAt: now))
        return (record, token)
    }

    /// The operator behind a session token, if the session is live and the operator enabled.
    public func session(token: String) async throws -> OperatorRecord {
        let hash = RandomToken.sha256Hex(token)
        let now = clock.now()
        guard token.hasPrefix(Self.sessionPrefix), let session = try await store.consoleSession(tokenHash: hash),
            session.expiresAt > now, now.timeIntervalSince(session.lastSeenAt) < Self.idleTimeout,
            let record = try await store.operatorRecord(id: session.operatorID, tenantID: session.tenantID),
            record.disabledAt == nil
        else {
            throw ProvisioError(.consoleSessionInvalid, "Your session has ended; sign in again.")
        }
        // One write a minute at most keeps the idle clock honest without a write per page.
        if now.timeIntervalSince(session.lastSeenAt) >= 60 { try await store.touchConsoleSession(tokenHash: hash, at: now) }
        return record
    }

    public func signOut(token: String) async throws {
        try await store.deleteConsoleSession(tokenHash: RandomToken.sha256Hex(token))
    }

    static func normalized(email: String) throws -> String {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard (3...254).contains(trimmed.count), parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            trimmed.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw ProvisioError(.invalidParameter, "The email must be an address like name@example.com.")
        }
        // It is stored and shown (and named in the audit log): never a card number.
        try CardService.refuseCardNumber(in: trimmed, field: "email")
        return trimmed
    }

    static func validate(password: String) throws {
        guard passwordBytes.contains(password.utf8.count) else {
            throw ProvisioError(
                .weakPassword, "A password is \(passwordBytes.lowerBound) to \(passwordBytes.upperBound) bytes long.")
        }
    }

    static func signInFailed() -> ProvisioError {
        ProvisioError(.signInFailed, "The email or the password is wrong.")
    }

    /// A bcrypt hash no password matches, verified for unknown emails so they take as long.
    static let decoyHash = "$2b$12$C6UzMDM.H6dfI/f/IKxGhuQ0b1x0Zo3Jp9yMNnqxUKIZ7bkv1ZyLm"
}
