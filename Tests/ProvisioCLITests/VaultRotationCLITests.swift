import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioServer
import SQLKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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
            expiry: try CardExpiry(month: 12, year: 2030), cardholderName: try CardholderName("Jane"),
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
            rewrap.stdout.contains(
                "Re-wrapped 1 cards, 1 webhook secrets, 0 network API keys, 0 MDES issuer keys and 1 stored idempotent answers"))
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

    /// Two operators (or a script and an operator) rotating at once: the key file is changed
    /// under a lock, so every new key survives.
    @Test func concurrentRotationsFromSeveralProcessesKeepEveryKey() async throws {
        let base = CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let keysDir = base + "/keys"
        #expect(try await CLIRunner.run(["keys", "init", "--dir", keysDir]).status == 0)
        let results = try await withThrowingTaskGroup(of: CLIRunner.Result.self) { group in
            for _ in 0..<6 { group.addTask { try await CLIRunner.run(["keys", "rotate", "--dir", keysDir]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        #expect(try KeyDirectory(path: keysDir).load().keyring.decryptOnly.count == 6)
    }

    /// A running server picks up a rotated key file on SIGHUP; until it does, `keys retire`
    /// refuses the key it still seals under (its heartbeat in the database says so).
    @Test func aRunningServerHoldsOffRetireUntilItReloads() async throws {
        let base = CLIRunner.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let keysDir = base + "/keys"
        let database = base + "/p.sqlite"
        #expect(try await CLIRunner.run(["keys", "init", "--dir", keysDir]).status == 0)
        let oldKey = try KeyDirectory(path: keysDir).load().keyring.active.id
        let (tenantID, apiKey, _) = try await CLIRunner.createTenant(name: "Reload Bank", database: database)
        let server = try await ServerProcess(arguments: ["--database", database, "--keys", keysDir], logFile: base + "/s.log")
        try await server.waitUntilListening()
        let log = { (try? String(contentsOfFile: base + "/s.log", encoding: .utf8)) ?? "" }

        #expect(try await CLIRunner.run(["keys", "rotate", "--dir", keysDir]).status == 0)
        let newKey = try KeyDirectory(path: keysDir).load().keyring.active.id
        // No stored record uses the old key, but the server still seals under it.
        let refused = try await CLIRunner.run(["keys", "retire", "--dir", keysDir, "--key-id", oldKey, "--database", database])
        #expect(refused.status == 2 && refused.stderr.hasPrefix("error: vault_key_active_on_server:"), "\(refused.stderr)")

        #expect(server.child.signal(SIGHUP))
        var retired = false
        for _ in 0..<100 where !retired {
            let retire = try await CLIRunner.run(
                ["keys", "retire", "--dir", keysDir, "--key-id", oldKey, "--database", database])
            retired = retire.status == 0
            if !retired { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(retired, "\(log())")

        // What the server seals now is under the new key, and it still answers.
        let card = #"{"customer_ref":"c","pan":"4111111111111111","expiry_month":12,"expiry_year":2030,"cardholder_name":"J"}"#
        let created = try await server.endpoint.request(
            "POST", "/v1/cards", token: apiKey, body: Data(card.utf8),
            headers: ["Idempotency-Key": "reload-1"])
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let cardID = try #require((try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["id"] as? String)
        #expect(await server.stop() == 0)
        #expect(log().contains("reloaded the vault keys"), "\(log())")

        let handle = try await DatabaseConnector.connect(.sqlite(path: database), logger: Logger(label: "t"))
        let stored = try #require(try await SQLProvisioStore(handle: handle).card(id: cardID, tenantID: tenantID))
        #expect(stored.panVaultRecord.hasPrefix("pv1.\(newKey)."))
        // A clean stop removes the server's heartbeat.
        let instances = try await handle.read { try await $0.raw("SELECT COUNT(*) AS n FROM server_instances").first() }
        #expect(try instances?.decode(column: "n", as: Int.self) == 0)
        await handle.shutdown()
    }
}
