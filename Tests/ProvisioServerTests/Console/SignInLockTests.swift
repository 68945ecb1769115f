import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

/// The failure count and the lock are one conditional update in the database, so parallel
/// guesses cannot slip past it, on both engines; and every failure costs one bcrypt
/// verification, a locked account's too, so none of them answers faster.
@Suite struct SignInLockTests {
    /// Counts verifications (bcrypt at the cheapest cost underneath).
    final class CountingHasher: PasswordHasher {
        let inner = BcryptPasswordHasher(cost: 4)
        let verifications = Locked(0)

        func hash(_ password: String) async throws -> String { try await inner.hash(password) }

        func verify(_ password: String, hash: String) async throws -> Bool {
            verifications.withLock { $0 += 1 }
            return try await inner.verify(password, hash: hash)
        }
    }

    static func service(_ database: TestDatabase, hasher: any PasswordHasher, clock: TestClock) -> OperatorService {
        OperatorService(
            store: SQLProvisioStore(handle: database.handle), hasher: hasher, clock: clock,
            limits: SignInLimits(perAddress: 1000, perAccount: 1000, window: 900))
    }

    static func tenant(_ database: TestDatabase, clock: TestClock) async throws -> String {
        try await AccessService(store: SQLProvisioStore(handle: database.handle), clock: clock).createTenant(name: "T").tenant.id
    }

    @Test(arguments: TestEngine.available)
    func parallelWrongGuessesCountFiveAndLock(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let clock = TestClock()
            // Room for all twenty at once: here the database decides, not the executor's bound.
            let hasher = BcryptPasswordHasher(cost: 4, executor: PasswordHashingExecutor(threads: 2, capacity: 32))
            let operators = Self.service(database, hasher: hasher, clock: clock)
            let tenantID = try await Self.tenant(database, clock: clock)
            let (record, password) = try await operators.create(
                tenantID: tenantID, email: "admin@bank.example", role: .admin, password: nil)
            let codes = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do {
                            _ = try await operators.signIn(
                                tenantID: tenantID, email: record.email, password: "wrong guess \(index)", from: "192.0.2.1")
                            return "signed in"
                        } catch let error as ProvisioError {
                            return error.code.rawValue
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(codes == Array(repeating: "sign_in_failed", count: 20))
            let stored = try #require(try await operators.store.operatorRecord(id: record.id, tenantID: tenantID))
            #expect(stored.failedSignIns == OperatorService.failuresBeforeLock, "counted \(stored.failedSignIns)")
            // Stored in milliseconds.
            let until = clock.now().addingTimeInterval(OperatorService.lockDuration)
            #expect(stored.lockedUntil.map { abs($0.timeIntervalSince(until)) < 0.002 } == true)
            // The right password during the lock opens nothing, and says so.
            let locked = await #expect(throws: ProvisioError.self) {
                try await operators.signIn(tenantID: tenantID, email: record.email, password: password, from: "192.0.2.1")
            }
            #expect(locked?.code == .signInLocked)
            // Exactly one audit line for the lock.
            let audit = try await AuditService(store: SQLProvisioStore(handle: database.handle)).events(
                tenantID: tenantID, filter: AuditFilter(targetType: "operator", targetID: record.id), cursor: nil, limit: 50)
            #expect(audit.items.filter { $0.action == "operator.locked" }.count == 1)
        }
    }

    @Test func everyFailureCostsOneVerification() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let clock = TestClock()
            let hasher = CountingHasher()
            let operators = Self.service(database, hasher: hasher, clock: clock)
            let tenantID = try await Self.tenant(database, clock: clock)
            let (locked, _) = try await operators.create(
                tenantID: tenantID, email: "locked@bank.example", role: .admin, password: nil)
            let (disabled, _) = try await operators.create(
                tenantID: tenantID, email: "gone@bank.example", role: .admin, password: nil)
            _ = try await operators.disable(id: disabled.id, tenantID: tenantID)
            for _ in 0..<OperatorService.failuresBeforeLock {
                _ = try? await operators.signIn(tenantID: tenantID, email: locked.email, password: "wrong", from: "192.0.2.1")
            }
            for (who, email, tenant) in [
                ("locked", locked.email, tenantID), ("disabled", disabled.email, tenantID),
                ("unknown", "nobody@bank.example", tenantID), ("unknown tenant", locked.email, "ten_nothing"),
                ("not an email", "x", tenantID),
            ] {
                let before = hasher.verifications.value
                let error = await #expect(throws: ProvisioError.self) {
                    try await operators.signIn(tenantID: tenant, email: email, password: "wrong", from: "192.0.2.1")
                }
                #expect(error?.code == .signInFailed, "\(who)")
                #expect(hasher.verifications.value == before + 1, "\(who): \(hasher.verifications.value - before) verifications")
            }
        }
    }
}
