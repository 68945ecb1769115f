import Foundation
import ProvisioCore
import ProvisioCrypto
import SQLKit
import Testing

@testable import ProvisioServer

/// The tenants' MDES issuer keys in the store, on every engine: concurrent first calls make one
/// key, keys stay in their tenant, and a sealed key opens only in its own row.
@Suite struct MDESKeyStoreTests {
    static func service(_ database: TestDatabase, vault: PANVault) async throws -> MDESKeyService {
        let store = SQLProvisioStore(handle: database.handle)
        for id in ["ten_a", "ten_b"] {
            try await store.insertTenant(TenantRecord(id: id, name: "Tenant \(id)", createdAt: Date()))
        }
        return MDESKeyService(store: store, vault: vault, clock: SystemTimeSource())
    }

    @Test(arguments: TestEngine.available)
    func concurrentFirstCallsMakeOneKey(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let service = try await Self.service(database, vault: PANVault(keyring: VaultKeyring(active: .generate())))
            let keys = try await withThrowingTaskGroup(of: MDESKeyService.PublicKey.self) { group in
                for _ in 0..<6 { group.addTask { try await service.key(tenantID: "ten_a", keySize: nil, rotate: false) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(keys.map(\.fingerprint)).count == 1)
            #expect(keys.filter(\.created).count == 1)
            let stored = try await SQLProvisioStore(handle: database.handle).mdesIssuerKeys(tenantID: "ten_a")
            #expect(stored.map(\.fingerprint) == [keys[0].fingerprint])
        }
    }

    @Test(arguments: TestEngine.available)
    func keysStayInTheirTenantAndTheirRow(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let vault = PANVault(keyring: VaultKeyring(active: .generate()))
            let service = try await Self.service(database, vault: vault)
            let key = try await service.key(tenantID: "ten_a", keySize: nil, rotate: false)
            #expect(try await service.liveKeys(tenantID: "ten_a").map(\.publicKeyFingerprint) == [key.fingerprint])
            #expect(try await service.liveKeys(tenantID: "ten_b").isEmpty)
            let otherTenant = await #expect(throws: ProvisioError.self) {
                try await service.retire(tenantID: "ten_b", fingerprint: key.fingerprint)
            }
            #expect(otherTenant?.code == .mdesKeyNotFound)

            // Tenant A's sealed key copied into a row of tenant B does not open there.
            let record = try #require(try await SQLProvisioStore(handle: database.handle).mdesIssuerKeys(tenantID: "ten_a").first)
            var copied = record
            copied.tenantID = "ten_b"
            _ = try await SQLProvisioStore(handle: database.handle).addMDESIssuerKey(copied, onlyIfNoneLive: false)
            let moved = await #expect(throws: ProvisioError.self) { try await service.liveKeys(tenantID: "ten_b") }
            #expect(moved?.code == .vaultDecryptionFailed)
        }
    }
}
