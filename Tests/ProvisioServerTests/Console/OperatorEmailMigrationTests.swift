import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

/// The migration that makes operator emails unique per tenant keeps every operator (SQLite
/// rebuilds the table) and leaves the database itself refusing a duplicate within a tenant.
@Suite struct OperatorEmailMigrationTests {
    static var version: Int {
        SchemaMigrations.all.first { $0.name == "operator_emails_unique_per_tenant" }?.version ?? 0
    }

    @Test(arguments: TestEngine.available)
    func operatorsSurviveAndEmailsBecomeUniquePerTenant(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine, schemaVersion: Self.version - 1) { database in
            let clock = TestClock()
            let store = SQLProvisioStore(handle: database.handle)
            let access = AccessService(store: store, clock: clock)
            let tenantA = try await access.createTenant(name: "A").tenant.id
            let tenantB = try await access.createTenant(name: "B").tenant.id
            let hasher = BcryptPasswordHasher(cost: 4)
            let before = OperatorRecord(
                id: "op_before", tenantID: tenantA, email: "shared@bank.example", role: .admin,
                passwordHash: try await hasher.hash("correct horse battery"),
                createdAt: Date(timeIntervalSince1970: 1_800_000_000))
            try await store.insertOperator(before)
            // Under the old index the same email in another tenant is refused by the database.
            var other = before
            other.id = "op_other"
            other.tenantID = tenantB
            await #expect(throws: (any Error).self) { try await store.insertOperator(other) }

            // This migration, then whatever later ones exist (a later migration is not this test's).
            let applied = try await Migrator(handle: database.handle).migrate()
            #expect(applied.first == Self.version)
            #expect(applied == SchemaMigrations.all.map(\.version).filter { $0 >= Self.version })
            #expect(try await store.operatorRecord(tenantID: tenantA, email: "shared@bank.example") == before)
            try await store.insertOperator(other)
            #expect(try await store.operatorRecord(tenantID: tenantB, email: "shared@bank.example") == other)
            var twin = before
            twin.id = "op_twin"
            await #expect(throws: (any Error).self) { try await store.insertOperator(twin) }
            #expect(try await store.operators(tenantID: tenantA).map(\.id) == ["op_before"])
        }
    }
}
