import Foundation
import ProvisioCore
import ProvisioCrypto
import Testing

/// Every copy of a vault shares its live keyring: a server swaps it once and every service
/// seals under the new key from the next operation on.
@Suite struct LiveKeyringTests {
    @Test func copiesOfAVaultSwitchTogether() throws {
        let first = KeyEncryptionKey.generate()
        let vault = PANVault(keyring: VaultKeyring(active: first))
        let copy = vault
        let before = try copy.seal(secret: Data("s".utf8), context: "c")
        var rotated = vault.keyring
        let second = KeyEncryptionKey.generate()
        try rotated.rotate(to: second)
        vault.liveKeyring.replace(with: rotated)

        let after = try copy.seal(secret: Data("s".utf8), context: "c")
        #expect(before.keyID == first.id && after.keyID == second.id)
        #expect(try copy.openSecret(before, context: "c") == Data("s".utf8))
        #expect(try vault.rewrap(before).keyID == second.id)
    }

    /// Seals racing a swap each use one whole keyring: every record opens afterwards.
    @Test func sealsDuringASwapUseOneWholeKeyring() async throws {
        let vault = PANVault(keyring: VaultKeyring(active: .generate()))
        let records = try await withThrowingTaskGroup(of: [VaultRecord].self) { group in
            for _ in 0..<4 {
                group.addTask { try (0..<200).map { _ in try vault.seal(secret: Data("s".utf8), context: "c") } }
            }
            group.addTask {
                for _ in 0..<20 {
                    var keyring = vault.keyring
                    try keyring.rotate(to: .generate())
                    vault.liveKeyring.replace(with: keyring)
                }
                return []
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(records.count == 800)
        for record in records { #expect(try vault.openSecret(record, context: "c") == Data("s".utf8)) }
    }
}
