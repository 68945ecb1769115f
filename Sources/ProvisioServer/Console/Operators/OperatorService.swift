import Foundation
import ProvisioCore

/// The console's people: operators created by an admin or at the command line, signing in to
/// their tenant with a password (bcrypt), holding an expiring session, locked for a while after
/// too many wrong passwords in a row.
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
    /// Attempts per client address and per account, held in this process.
    let throttle: SignInThrottle

    public init(
        store: any OperatorStore, hasher: any PasswordHasher, clock: any TimeSource, limits: SignInLimits = .standard
    ) {
        self.store = store
        self.hasher = hasher
        self.clock = clock
        self.throttle = SignInThrottle(limits: limits)
    }

    public var limits: SignInLimits { throttle.limits }

    /// Creates an operator; without a password one is generated. The password in the answer is
    /// the only copy.
    public func create(tenantID: String, email: String, role: OperatorRole, password: String?) async throws
        -> (record: OperatorRecord, password: String)
    {
        let email = try Self.normalized(email: email)
        let password = password ?? RandomToken.secret(prefix: "").prefix(24).description
        try Self.validate(password: password)
        // Unique within the tenant only: another tenant's operators are none of its business.
        guard try await store.operatorRecord(tenantID: tenantID, email: email) == nil else {
            throw ProvisioError(.operatorExists, "The tenant already has an operator with this email.")
        }
        let record = OperatorRecord(
            id: RandomToken.identifier(prefix: "op_"), tenantID: tenantID, email: email, role: role,
            passwordHash: try await hasher.hash(password), createdAt: clock.now())
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
    ///
    /// A wrong password, an unknown tenant or email, a disabled and a locked account all fail
    /// alike (`sign_in_failed`) after one bcrypt verification each; only the right password
    /// learns of a lock. Attempts are limited per client `address` and per account
    /// (`sign_in_limited`), and refused at once when too much hashing waits (`sign_in_busy`).
    public func signIn(tenantID: String, email: String, password: String, from address: String) async throws -> (
        record: OperatorRecord, token: String
    ) {
        let now = clock.now()
        let tenantID = tenantID.trimmingCharacters(in: .whitespacesAndNewlines)
        let email = try? Self.normalized(email: email)
        // Keyed whether or not the account exists, so the limit tells nothing either.
        let account = RandomToken.sha256Hex("\(tenantID)\n\(email ?? "")")
        guard let ticket = throttle.admit(address: address, account: account, at: now) else {
            throw ProvisioError(.signInLimited, "Too many sign-in attempts; wait a few minutes and try again.")
        }
        do {
            var record: OperatorRecord?
            if let email, (1...64).contains(tenantID.count) {
                record = try await store.operatorRecord(tenantID: tenantID, email: email)
            }
            let matches = try await hasher.verify(password, hash: record?.passwordHash ?? Self.decoyHash)
            guard let record, record.disabledAt == nil else { throw Self.signInFailed() }
            guard matches else {
                // Counted and locked in one conditional update; a locked account is not counted
                // further (its lock is not extended), an expired lock starts the count again.
                _ = try await store.recordFailedSignIn(
                    operatorID: record.id, lockAfter: Self.failuresBeforeLock,
                    lockedUntil: now.addingTimeInterval(Self.lockDuration), at: now)
                throw Self.signInFailed()
            }
            // The right password: let in only if neither locked nor disabled at this instant.
            guard try await store.recordSignIn(operatorID: record.id, tenantID: record.tenantID, at: now) else {
                let current = try await store.operatorRecord(id: record.id, tenantID: record.tenantID)
                guard let until = current?.lockedUntil, current?.disabledAt == nil else { throw Self.signInFailed() }
                throw ProvisioError(
                    .signInLocked,
                    "Too many wrong passwords; try again after \(until.formatted(.iso8601)) or ask an admin.")
            }
            throttle.giveBack(ticket)
            let token = RandomToken.secret(prefix: Self.sessionPrefix)
            try await store.insertConsoleSession(
                ConsoleSessionRecord(
                    tokenHash: RandomToken.sha256Hex(token), operatorID: record.id, tenantID: record.tenantID,
                    createdAt: now, expiresAt: now.addingTimeInterval(Self.sessionLifetime), lastSeenAt: now))
            return (record, token)
        } catch let error as ProvisioError where error.code == .signInBusy {
            // Never tried: it does not use the allowance.
            throttle.giveBack(ticket)
            throw error
        }
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
        ProvisioError(.signInFailed, "The tenant, the email or the password is wrong.")
    }

    /// A bcrypt hash no password matches, verified for unknown emails so they take as long.
    static let decoyHash = "$2b$12$C6UzMDM.H6dfI/f/IKxGhuQ0b1x0Zo3Jp9yMNnqxUKIZ7bkv1ZyLm"
}
