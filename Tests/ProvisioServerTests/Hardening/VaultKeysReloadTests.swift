import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioServer
import ServiceLifecycle
import Testing

/// A rotated `vault-keys.json` reaches a running server without a restart, every service's
/// vault switches at once, a bad file changes nothing, and the server's heartbeat tells
/// `keys retire` which key it seals under.
@Suite struct VaultKeysReloadTests {
    static func keyDirectory() throws -> (KeyDirectory, ProvisioKeys) {
        let path = NSTemporaryDirectory() + "provisio-reload-\(UUID().uuidString)"
        let directory = KeyDirectory(path: path)
        return (directory, try directory.initialize())
    }

    static func services(_ database: TestDatabase, keys: ProvisioKeys) -> ServerServices {
        ServerServices(
            handle: database.handle, keys: keys, chainValidator: CachingChainValidator(validator: .production()),
            networkKey: P256.KeyAgreement.PrivateKey().publicKey, networkKeyID: "n", clock: SystemTimeSource())
    }

    /// Polls `condition` (real work runs concurrently) for up to `seconds`.
    static func eventually(seconds: Double = 20, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    /// Runs `service` in a service group until `body` returns, then stops it gracefully.
    static func running<S: Service>(_ service: S, _ body: () async throws -> Void) async throws {
        let group = ServiceGroup(services: [service], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                try await body()
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    static let newCard = CardService.NewCard(
        customerRef: "c", accountRef: nil, pan: try! PrimaryAccountNumber("4111111111111111"),
        expiry: try! CardExpiry(month: 12, year: 2030), cardholderName: try! CardholderName("Jane"),
        network: nil, cardArtURL: nil)

    @Test(arguments: TestEngine.available)
    func thePeriodicCheckSwitchesEveryServiceAndTheHeartbeat(_ engine: TestEngine) async throws {
        let (directory, keys) = try Self.keyDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        try await TestDatabase.with(engine) { database in
            let services = Self.services(database, keys: keys)
            let (tenant, _) = try await services.access.createTenant(name: "Reload Bank")
            let before = try await services.cards.create(Self.newCard, tenantID: tenant.id)
            let oldKey = keys.keyring.active.id
            let logs = LogCapture()
            let service = VaultKeysService(
                directory: directory, vault: services.vault, store: services.store, clock: services.clock,
                interval: .milliseconds(100), logger: logs.logger())
            try await Self.running(service) {
                #expect(
                    try await Self.eventually {
                        try await services.store.liveServers(at: Date()).map(\.activeKeyID) == [oldKey]
                    })
                let newKey = try directory.rotateVaultKey().active.id

                #expect(try await Self.eventually { services.vault.keyring.active.id == newKey }, "\(logs.text)")
                // The card service holds its own copy of the vault: it seals under the new key too.
                let after = try await services.cards.create(Self.newCard, tenantID: tenant.id)
                #expect(after.panVaultRecord.hasPrefix("pv1.\(newKey)."))
                // Records under the old key still open (it is decrypt-only now).
                let pan = try services.vault.open(
                    VaultRecord(serialized: before.panVaultRecord),
                    context: CardRecord.vaultContext(tenantID: tenant.id, cardID: before.id))
                #expect(pan.unmaskedDigits == "4111111111111111")
                #expect(
                    try await Self.eventually {
                        let live = try await services.store.liveServers(at: Date())
                        return live.map(\.activeKeyID) == [newKey] && live.first?.loadedKeyIDs == [newKey, oldKey]
                    })
            }
            #expect(logs.count(containing: "reloaded the vault keys") == 1, "\(logs.text)")
            // A clean stop removes the heartbeat.
            #expect(try await services.store.liveServers(at: Date()).isEmpty)
        }
    }

    @Test func aReloadRequestReloadsAtOnce() async throws {
        let (directory, keys) = try Self.keyDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        try await TestDatabase.with(.sqlite) { database in
            let services = Self.services(database, keys: keys)
            let (requests, request) = AsyncStream.makeStream(of: Void.self)
            // An hour between periodic checks: only the request can explain a reload.
            let service = VaultKeysService(
                directory: directory, vault: services.vault, store: services.store, clock: services.clock,
                interval: .seconds(3600), reloadRequests: requests, logger: Logger(label: "test"))
            try await Self.running(service) {
                #expect(try await Self.eventually { try await !services.store.liveServers(at: Date()).isEmpty })
                let newKey = try directory.rotateVaultKey().active.id
                request.yield()
                #expect(try await Self.eventually { services.vault.keyring.active.id == newKey })
                #expect(
                    try await Self.eventually {
                        try await services.store.liveServers(at: Date()).map(\.activeKeyID) == [newKey]
                    })
            }
        }
    }

    @Test func aBadOrForeignKeyFileKeepsTheKeysInUse() throws {
        let (directory, keys) = try Self.keyDirectory()
        let (other, _) = try Self.keyDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: directory.path)
            try? FileManager.default.removeItem(atPath: other.path)
        }
        let vaultFile = directory.path + "/" + KeyDirectory.vaultKeysFile
        let live = LiveKeyring(keys.keyring)
        var reloader = VaultKeyringReloader(directory: directory, live: live)
        #expect(reloader.check() == .unchanged)

        // Half a file (a copy in progress, a bad edit).
        let good = try Data(contentsOf: URL(fileURLWithPath: vaultFile))
        try FileManager.default.removeItem(atPath: vaultFile)
        try KeyDirectory.writeSecret(String(decoding: good.prefix(good.count / 2), as: UTF8.self), to: vaultFile)
        guard case .refused(let code, _) = reloader.check() else {
            Issue.record("a truncated key file was accepted")
            return
        }
        #expect(code == .keysInvalid)
        #expect(live.current.active.id == keys.keyring.active.id)

        // Another installation's key file: it would strand every record sealed here.
        try FileManager.default.removeItem(atPath: vaultFile)
        try FileManager.default.copyItem(atPath: other.path + "/" + KeyDirectory.vaultKeysFile, toPath: vaultFile)
        guard case .refused(let foreign, _) = reloader.check() else {
            Issue.record("a foreign key file was accepted")
            return
        }
        #expect(foreign == .vaultKeyringUnrelated)
        #expect(live.current.active.id == keys.keyring.active.id)

        // The right file again, rotated: taken.
        try FileManager.default.removeItem(atPath: vaultFile)
        try KeyDirectory.writeSecret(String(decoding: good, as: UTF8.self), to: vaultFile)
        let rotated = try directory.rotateVaultKey()
        #expect(
            reloader.check()
                == .reloaded(
                    activeKeyID: rotated.active.id, loadedKeyIDs: [rotated.active.id, keys.keyring.active.id],
                    retiredKeyIDs: []))
        #expect(live.current.active.id == rotated.active.id)
        // Retiring the old key on purpose is a successor too.
        let retired = try directory.retireVaultKey(id: keys.keyring.active.id)
        #expect(
            reloader.check()
                == .reloaded(
                    activeKeyID: retired.active.id, loadedKeyIDs: [retired.active.id],
                    retiredKeyIDs: [keys.keyring.active.id]))
    }

    @Test(arguments: TestEngine.available)
    func heartbeatsExpireAndAStopRemovesThem(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            let now = Date()
            var beat = ServerHeartbeat(
                instanceID: "srv_a", host: "h pid 1", activeKeyID: "kek_a", loadedKeyIDs: ["kek_a"], startedAt: now,
                lastSeenAt: now, expiresAt: now.addingTimeInterval(90))
            try await store.saveHeartbeat(beat)
            #expect(try await store.liveServers(at: now).map(\.summary) == [beat.summary])
            #expect(try await store.liveServers(at: now.addingTimeInterval(91)).isEmpty)

            beat.activeKeyID = "kek_b"
            beat.loadedKeyIDs = ["kek_b", "kek_a"]
            beat.lastSeenAt = now.addingTimeInterval(30)
            beat.expiresAt = now.addingTimeInterval(120)
            try await store.saveHeartbeat(beat)
            #expect(try await store.liveServers(at: now.addingTimeInterval(100)).map(\.summary) == [beat.summary])

            // A server that died long ago is forgotten by the next heartbeat of any server.
            let dead = ServerHeartbeat(
                instanceID: "srv_dead", host: "h pid 2", activeKeyID: "kek_a", loadedKeyIDs: ["kek_a"],
                startedAt: now.addingTimeInterval(-200_000), lastSeenAt: now.addingTimeInterval(-200_000),
                expiresAt: now.addingTimeInterval(-199_910))
            try await store.saveHeartbeat(dead)
            try await store.saveHeartbeat(beat)
            #expect(try await store.liveServers(at: now.addingTimeInterval(-199_950)).map(\.instanceID) == ["srv_a"])

            try await store.removeHeartbeat(instanceID: "srv_a")
            #expect(try await store.liveServers(at: now).isEmpty)
        }
    }
}

extension ServerHeartbeat {
    /// What survives the trip through the database exactly (times are kept to the millisecond).
    fileprivate var summary: String { "\(instanceID) \(host) \(activeKeyID) \(loadedKeyIDs)" }
}
