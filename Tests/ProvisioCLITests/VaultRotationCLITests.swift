import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioServer
import Testing

/// Key rotation as an operator runs it: rotate, re-wrap the stored records, retire the old key.
@Suite struct VaultRotationCLITests {
    @Test func rotateRewrapRetireKeepsEveryCardReadable() async throws {
        let base = CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let keysDir = base + "/keys"
        let database = base + "/p.sqlite"
        #expect(try await CLIRunner.run(["keys", "init", "--dir", keysDir]).status == 0)

        // A card stored under the first key.
        let original = try KeyDirectory(path: keysDir).load()
        let handle = try await DatabaseConnector.connect(.sqlite(path: database), logger: Logger(label: "t"))
        try await Migrator(handle: handle).migrate()
        let services = ServerServices(
            handle: handle, keys: original, chainValidator: CachingChainValidator(validator: .production()),
            networkKey: P256.KeyAgreement.PrivateKey().publicKey, networkKeyID: "n", clock: SystemTimeSource())
        let (tenant, _) = try await services.access.createTenant(name: "Rotation Bank")
        let newCard = CardService.NewCard(
            customerRef: "c", accountRef: nil, pan: try PrimaryAccountNumber("4111111111111111"),
            expiry: try CardExpiry(month: 12, year: 2030), cardholderName: try CardholderName("Jane"), productTitle: nil,
            network: nil, cardArtURL: nil)
        let card = try await services.cards.create(newCard, tenantID: tenant.id)
        _ = try await services.webhooks.createEndpoint(tenantID: tenant.id, url: "https://example.com/hook", events: ["*"])
        // A stored idempotent answer is sealed too, so it moves with the rest.
        let answerContext = "idempotency|\(tenant.id)|key-1"
        let firstStore = SQLProvisioStore(handle: handle)
        let lease = IdempotencyLease(token: "t", expiresAt: Date().addingTimeInterval(30))
        #expect(
            try await firstStore.claimIdempotencyKey(scope: tenant.id, key: "key-1", requestHash: "h", lease: lease, at: Date())
                == .claimed)
        let sealedAnswer = try services.vault.seal(secret: Data(#"{"secret":"prv_ms_x"}"#.utf8), context: answerContext)
        try await firstStore.completeIdempotencyKey(
            scope: tenant.id, key: "key-1", token: "t", status: 201, body: sealedAnswer.serialized)
        await handle.shutdown()
        let oldKey = original.keyring.active.id
        #expect(card.panVaultRecord.hasPrefix("pv1.\(oldKey)."))

        #expect(try await CLIRunner.run(["keys", "rotate", "--dir", keysDir]).status == 0)
        let refused = try await CLIRunner.run(["keys", "retire", "--dir", keysDir, "--key-id", oldKey, "--database", database])
        #expect(refused.status == 2 && refused.stderr.hasPrefix("error: vault_key_in_use:"), "\(refused.stderr)")

        let rewrap = try await CLIRunner.run(["keys", "rewrap", "--dir", keysDir, "--database", database])
        #expect(rewrap.status == 0, "\(rewrap.stderr)")
        #expect(
            rewrap.stdout.contains("Re-wrapped 1 cards, 1 webhook secrets, 0 network API keys and 1 stored idempotent answers"))
        let retire = try await CLIRunner.run(["keys", "retire", "--dir", keysDir, "--key-id", oldKey, "--database", database])
        #expect(retire.status == 0, "\(retire.stderr)")

        // With the old key gone, the card still opens, and only under the new key.
        let rotated = try KeyDirectory(path: keysDir).load()
        #expect(rotated.keyring.retiredIDs == [oldKey] && rotated.keyring.decryptOnly.isEmpty)
        let reopened = try await DatabaseConnector.connect(.sqlite(path: database), logger: Logger(label: "t"))
        let store = SQLProvisioStore(handle: reopened)
        let stored = try #require(try await store.card(id: card.id, tenantID: tenant.id))
        #expect(stored.panVaultRecord.hasPrefix("pv1.\(rotated.keyring.active.id)."))
        let pan = try PANVault(keyring: rotated.keyring).open(
            VaultRecord(serialized: stored.panVaultRecord), context: CardRecord.vaultContext(tenantID: tenant.id, cardID: card.id)
        )
        #expect(pan.unmaskedDigits == "4111111111111111")
        let answer = try #require(try await store.idempotencyRecord(scope: tenant.id, key: "key-1")?.responseBody)
        #expect(answer.hasPrefix("pv1.\(rotated.keyring.active.id)."))
        let opened = try PANVault(keyring: rotated.keyring).openSecret(VaultRecord(serialized: answer), context: answerContext)
        #expect(String(decoding: opened, as: UTF8.self) == #"{"secret":"prv_ms_x"}"#)
        // The ciphertext itself never changed: only the data key was re-wrapped.
        #expect(
            try VaultRecord(serialized: stored.panVaultRecord).ciphertext
                == VaultRecord(serialized: card.panVaultRecord).ciphertext)
        await reopened.shutdown()
    }
}
