import Crypto
import Foundation
import ProvisioCore
import Testing

@testable import ProvisioCrypto

@Suite struct PANVaultTests {
    let context = "tenant_1/card_42"

    func code(_ body: () throws -> Void) -> ProvisioError.Code? {
        do { try body(); return nil } catch let error as ProvisioError { return error.code } catch {
            return ProvisioError.Code("unexpected")
        }
    }

    @Test func sealsAndOpens() throws {
        let vault = PANVault(keyring: VaultKeyring(active: .generate()))
        let record = try vault.seal(Fixtures.pan, context: context)
        #expect(record.keyID == vault.keyring.active.id)
        #expect(try vault.open(record, context: context) == Fixtures.pan)
        #expect(try vault.open(VaultRecord(serialized: record.serialized), context: context) == Fixtures.pan)
    }

    @Test func storedFormNeverShowsThePAN() throws {
        let vault = PANVault(keyring: VaultKeyring(active: .generate()))
        let record = try vault.seal(Fixtures.pan, context: context)
        #expect(record.serialized.hasPrefix("pv1.\(vault.keyring.active.id)."))
        for haystack in [
            record.serialized, String(decoding: record.ciphertext, as: UTF8.self),
            String(decoding: record.wrappedDataKey, as: UTF8.self),
        ] {
            #expect(!haystack.contains("4111111111111111"))
            #expect(!haystack.contains("1111"))
        }
    }

    @Test func eachRecordHasItsOwnDataKey() throws {
        let vault = PANVault(keyring: VaultKeyring(active: .generate()))
        let first = try vault.seal(Fixtures.pan, context: context)
        let second = try vault.seal(Fixtures.pan, context: context)
        #expect(first.wrappedDataKey != second.wrappedDataKey)
        #expect(first.ciphertext != second.ciphertext)
    }

    @Test func contextBindsTheRecordToItsRow() throws {
        let vault = PANVault(keyring: VaultKeyring(active: .generate()))
        let record = try vault.seal(Fixtures.pan, context: context)
        #expect(code { _ = try vault.open(record, context: "tenant_2/card_42") } == .vaultDecryptionFailed)
    }

    @Test func tamperingIsDetected() throws {
        let vault = PANVault(keyring: VaultKeyring(active: .generate()))
        let record = try vault.seal(Fixtures.pan, context: context)
        var ciphertext = record.ciphertext
        ciphertext[ciphertext.count - 1] ^= 1
        #expect(
            code {
                _ = try vault.open(
                    VaultRecord(keyID: record.keyID, wrappedDataKey: record.wrappedDataKey, ciphertext: ciphertext),
                    context: context)
            } == .vaultDecryptionFailed)
        var wrapped = record.wrappedDataKey
        wrapped[3] ^= 1
        #expect(
            code {
                _ = try vault.open(
                    VaultRecord(keyID: record.keyID, wrappedDataKey: wrapped, ciphertext: record.ciphertext), context: context)
            } == .vaultDecryptionFailed)
        #expect(code { _ = try VaultRecord(serialized: "pv1.kek_x.@@.@@") } == .vaultRecordMalformed)
        #expect(code { _ = try VaultRecord(serialized: "4111111111111111") } == .vaultRecordMalformed)
    }

    @Test func rotationRewrapsWithoutTouchingTheCiphertextAndRetirementFailsClearly() throws {
        let oldKey = KeyEncryptionKey.generate()
        var keyring = VaultKeyring(active: oldKey)
        let record = try PANVault(keyring: keyring).seal(Fixtures.pan, context: context)

        let newKey = KeyEncryptionKey.generate()
        try keyring.rotate(to: newKey)
        let rotated = PANVault(keyring: keyring)
        // Old records still open during the rotation window.
        #expect(try rotated.open(record, context: context) == Fixtures.pan)
        let rewrapped = try rotated.rewrap(record)
        #expect(rewrapped.keyID == newKey.id)
        #expect(rewrapped.ciphertext == record.ciphertext)
        #expect(rewrapped.wrappedDataKey != record.wrappedDataKey)
        #expect(try rotated.rewrap(rewrapped) == rewrapped)

        try keyring.retire(id: oldKey.id)
        let retired = PANVault(keyring: keyring)
        #expect(try retired.open(rewrapped, context: context) == Fixtures.pan)
        #expect(code { _ = try retired.open(record, context: context) } == .vaultKeyRetired)
        #expect(code { _ = try retired.rewrap(record) } == .vaultKeyRetired)
        #expect(
            code { _ = try PANVault(keyring: VaultKeyring(active: .generate())).open(record, context: context) }
                == .vaultKeyUnknown)
    }

    @Test func keyringRefusesUnsafeOperations() throws {
        var keyring = VaultKeyring(active: .generate())
        #expect(code { try keyring.retire(id: keyring.active.id) } == .vaultKeyInvalid)
        #expect(code { try keyring.retire(id: "kek_nope") } == .vaultKeyUnknown)
        #expect(code { try keyring.rotate(to: keyring.active) } == .vaultKeyInvalid)
        #expect(code { _ = try KeyEncryptionKey(id: "bad id!", keyBytes: Data(count: 32)) } == .vaultKeyInvalid)
        #expect(code { _ = try KeyEncryptionKey(id: "kek_ok", keyBytes: Data(count: 16)) } == .vaultKeyInvalid)
    }
}
