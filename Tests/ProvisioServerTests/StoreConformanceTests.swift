import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

/// One suite, every engine: the same expectations hold for SQLite and PostgreSQL.
@Suite struct StoreConformanceTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func tenant(_ id: String = "ten_a") -> TenantRecord {
        TenantRecord(id: id, name: "Tenant \(id)", createdAt: Self.t0)
    }

    func card(_ id: String, tenant: String = "ten_a", customer: String = "cust_1", createdAt: Date = t0) -> CardRecord {
        CardRecord(
            id: id, tenantID: tenant, customerRef: customer, accountRef: nil, panVaultRecord: "pv1.kek_x.AA.BB", last4: "1111",
            network: .visa, expiryMonth: 12, expiryYear: 2030, cardholderName: "Jane", productTitle: nil, cardArtURL: nil,
            primaryAccountIdentifier: "V-1", status: .active, createdAt: createdAt, updatedAt: createdAt)
    }

    @Test(arguments: TestEngine.available)
    func migrationsAreVersionedAndRunOnce(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let migrator = Migrator(handle: database.handle)
            // Versions run 1, 2, 3… with no gap, and every one is applied.
            let versions = Array(1...SchemaMigrations.all.count)
            #expect(try await migrator.appliedVersions() == versions)
            #expect(SchemaMigrations.all.map(\.version) == versions)
            #expect(try await migrator.migrate() == [])
            try await SQLProvisioStore(handle: database.handle).ping()
        }
    }

    @Test(arguments: TestEngine.available)
    func apiKeysAreFoundByHashOnlyAndRevokedOnce(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(tenant())
            try await store.insertTenant(tenant("ten_b"))
            let first = try #require(try await store.apiKey(hash: "hash-ten_a"))
            #expect(first.tenantID == "ten_a" && first.scope == .full && first.revokedAt == nil)
            #expect(try await store.apiKey(hash: "other") == nil)
            await #expect(throws: (any Error).self) { try await store.insertTenant(tenant()) }

            let second = APIKeyRecord(
                id: "key_2", tenantID: "ten_a", name: "reader", scope: .readOnly, keyHash: "hash-2",
                createdAt: Self.t0.addingTimeInterval(1))
            try await store.insertAPIKey(second)
            #expect(try await store.apiKeys(tenantID: "ten_a").map(\.id) == [first.id, "key_2"])
            // Another tenant cannot revoke it.
            #expect(try await store.revokeAPIKey(id: "key_2", tenantID: "ten_b", at: Self.t0) == nil)
            let revoked = try await store.revokeAPIKey(id: "key_2", tenantID: "ten_a", at: Self.t0.addingTimeInterval(9))
            #expect(revoked?.revokedAt == Self.t0.addingTimeInterval(9))
            let again = try await store.revokeAPIKey(id: "key_2", tenantID: "ten_a", at: Self.t0.addingTimeInterval(99))
            #expect(again?.revokedAt == Self.t0.addingTimeInterval(9))
            try await store.touchAPIKey(id: first.id, at: Self.t0.addingTimeInterval(3))
            #expect(try await store.apiKey(hash: "hash-ten_a")?.lastUsedAt == Self.t0.addingTimeInterval(3))
            let revocations = try await store.auditEvents(
                tenantID: "ten_a", filter: AuditFilter(targetType: "api_key", targetID: "key_2"), cursor: nil, limit: 10)
            #expect(revocations.items.map(\.action) == ["api_key.revoked", "api_key.created"])
        }
    }

    @Test(arguments: TestEngine.available)
    func cardsRoundTripAndStayWithinTheirTenant(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(tenant("ten_a"))
            try await store.insertTenant(tenant("ten_b"))
            var stored = card("card_1")
            stored.accountRef = "acct"
            stored.productTitle = "Gold"
            stored.cardArtURL = "https://example.com/art.png"
            try await store.insertCard(stored)
            #expect(try await store.card(id: "card_1", tenantID: "ten_a") == stored)
            #expect(try await store.card(id: "card_1", tenantID: "ten_b") == nil)

            let closed = try await store.setCardStatus(
                id: "card_1", tenantID: "ten_a", status: .close, at: Self.t0.addingTimeInterval(5))
            #expect(closed?.status == .closed)
            #expect(closed?.updatedAt == Self.t0.addingTimeInterval(5))
            #expect(try await store.setCardStatus(id: "card_1", tenantID: "ten_b", status: .close, at: Self.t0) == nil)
        }
    }

    @Test(arguments: TestEngine.available)
    func cardPagesAreStableAcrossEqualTimestamps(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(tenant())
            // Five cards share one timestamp: keyset pagination must still visit each once.
            for index in 0..<5 { try await store.insertCard(card("card_s\(index)", createdAt: Self.t0)) }
            for index in 0..<3 { try await store.insertCard(card("card_l\(index)", createdAt: Self.t0.addingTimeInterval(1))) }
            try await store.insertCard(card("card_other", customer: "cust_2"))
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await store.cards(tenantID: "ten_a", customerRef: "cust_1", cursor: cursor, limit: 3)
                #expect(page.items.count <= 3)
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == ["card_s0", "card_s1", "card_s2", "card_s3", "card_s4", "card_l0", "card_l1", "card_l2"])
            await #expect(throws: ProvisioError.self) {
                _ = try await store.cards(tenantID: "ten_a", customerRef: "cust_1", cursor: "garbage!", limit: 3)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func attemptsAreListedPerCard(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(tenant())
            try await store.insertCard(card("card_1"))
            try await store.insertCard(card("card_2"))
            let attempt = ProvisioningAttemptRecord(
                id: "att_1", tenantID: "ten_a", cardID: "card_1", wallet: .applePay, deviceType: .watch,
                encryptionScheme: .eccV2, outcome: .failed, errorCode: "chain_expired", createdAt: Self.t0)
            try await store.insertAttempt(attempt)
            var other = attempt
            other.id = "att_2"
            other.cardID = "card_2"
            try await store.insertAttempt(other)
            let page = try await store.attempts(cardID: "card_1", tenantID: "ten_a", cursor: nil, limit: 10)
            #expect(page.items == [attempt])
            #expect(try await store.attempts(cardID: "card_1", tenantID: "ten_b", cursor: nil, limit: 10).items.isEmpty)
        }
    }

    /// Attempts are written in groups under load: every acknowledged one is stored, and a bad
    /// one (here a repeated id) fails alone, not the group it travelled with.
    @Test(arguments: TestEngine.available)
    func concurrentAttemptsAreAllStoredAndABadOneFailsAlone(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(tenant())
            try await store.insertCard(card("card_1"))
            func attempt(_ id: String, _ index: Int) -> ProvisioningAttemptRecord {
                ProvisioningAttemptRecord(
                    id: id, tenantID: "ten_a", cardID: "card_1", wallet: .applePay, deviceType: .phone,
                    encryptionScheme: .eccV2, outcome: .succeeded, errorCode: nil,
                    createdAt: Self.t0.addingTimeInterval(Double(index)))
            }
            // 200 attempts at once; two of them share an id.
            let ids = (0..<199).map { "att_\($0)" } + ["att_7"]
            let failures = await withTaskGroup(of: String?.self) { group in
                for (index, id) in ids.enumerated() {
                    group.addTask {
                        do {
                            try await store.insertAttempt(attempt(id, index))
                            return nil
                        } catch {
                            return id
                        }
                    }
                }
                return await group.reduce(into: [String]()) { if let id = $1 { $0.append(id) } }
            }
            #expect(failures == ["att_7"])
            var stored: [String] = []
            var cursor: String?
            repeat {
                let page = try await store.attempts(cardID: "card_1", tenantID: "ten_a", cursor: cursor, limit: 100)
                stored += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(Set(stored) == Set(ids) && stored.count == 199)
        }
    }

    @Test(arguments: TestEngine.available)
    func provisionTokensAreSpentExactlyOnceUnderConcurrency(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(tenant())
            try await store.insertCard(card("card_1"))
            let token = ProvisionTokenRecord(
                tokenHash: "h1", tenantID: "ten_a", cardID: "card_1", wallet: .applePay,
                expiresAt: Self.t0.addingTimeInterval(300), usedAt: nil, createdAt: Self.t0)
            try await store.insertProvisionToken(token)
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await store.consumeProvisionToken(tokenHash: "h1", at: Self.t0.addingTimeInterval(1)) != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
            #expect(try await store.provisionToken(tokenHash: "h1")?.usedAt == Self.t0.addingTimeInterval(1))

            var expired = token
            expired.tokenHash = "h2"
            try await store.insertProvisionToken(expired)
            #expect(try await store.consumeProvisionToken(tokenHash: "h2", at: Self.t0.addingTimeInterval(300)) == nil)
        }
    }

    @Test(arguments: TestEngine.available)
    func mobileSessionsRoundTrip(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await store.insertTenant(tenant())
            let session = MobileSessionRecord(
                id: "ms_1", tokenHash: "s1", tenantID: "ten_a", customerRef: "cust_1", expiresAt: Self.t0.addingTimeInterval(900),
                createdAt: Self.t0)
            try await store.insertMobileSession(session)
            #expect(try await store.mobileSession(tokenHash: "s1") == session)
            #expect(try await store.mobileSession(tokenHash: "s2") == nil)
        }
    }

    @Test(arguments: TestEngine.available)
    func idempotencyKeysAreClaimedOnceAndScoped(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            func lease(_ token: String, seconds: TimeInterval = 30) -> IdempotencyLease {
                IdempotencyLease(token: token, expiresAt: Self.t0.addingTimeInterval(seconds))
            }
            let claims = try await withThrowingTaskGroup(of: (Int, IdempotencyClaim).self) { group in
                for index in 0..<12 {
                    group.addTask {
                        (
                            index,
                            try await store.claimIdempotencyKey(
                                scope: "ten_a", key: "k1", requestHash: "r1", lease: lease("t\(index)"), at: Self.t0)
                        )
                    }
                }
                return try await group.reduce(into: [(Int, IdempotencyClaim)]()) { $0.append($1) }
            }
            let winners = claims.filter { $0.1 == .claimed }.map(\.0)
            #expect(winners.count == 1)
            let winner = try #require(winners.first)

            // Only the holder of the claim completes it.
            #expect(
                try await store.completeIdempotencyKey(scope: "ten_a", key: "k1", token: "other", status: 200, body: "x") == false
            )
            #expect(
                try await store.completeIdempotencyKey(
                    scope: "ten_a", key: "k1", token: "t\(winner)", status: 201, body: "sealed"))
            guard
                case .existing(let record) = try await store.claimIdempotencyKey(
                    scope: "ten_a", key: "k1", requestHash: "r2", lease: lease("t99"), at: Self.t0)
            else {
                Issue.record("expected the existing record")
                return
            }
            #expect(record.state == .completed && record.responseStatus == 201 && record.responseBody == "sealed")
            #expect(record.requestHash == "r1")

            // Another scope is another namespace.
            #expect(
                try await store.claimIdempotencyKey(scope: "ten_b", key: "k1", requestHash: "r9", lease: lease("b1"), at: Self.t0)
                    == .claimed)
            // Only the holder releases; a released claim can be claimed again.
            try await store.releaseIdempotencyKey(scope: "ten_b", key: "k1", token: "someone-else")
            #expect(try await store.idempotencyRecord(scope: "ten_b", key: "k1") != nil)
            try await store.releaseIdempotencyKey(scope: "ten_b", key: "k1", token: "b1")
            #expect(
                try await store.claimIdempotencyKey(scope: "ten_b", key: "k1", requestHash: "r9", lease: lease("b2"), at: Self.t0)
                    == .claimed)

            // Purge removes only keys older than the cutoff.
            _ = try await store.claimIdempotencyKey(
                scope: "ten_a", key: "new", requestHash: "r", lease: lease("n", seconds: 3630),
                at: Self.t0.addingTimeInterval(3600))
            #expect(try await store.purgeIdempotencyKeys(createdBefore: Self.t0.addingTimeInterval(1)) == 2)
            #expect(try await store.idempotencyRecord(scope: "ten_a", key: "new") != nil)
        }
    }

    @Test(arguments: TestEngine.available)
    func anExpiredLeaseIsTakenOverOnlyForTheSameRequest(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            let crashed = IdempotencyLease(token: "dead", expiresAt: Self.t0.addingTimeInterval(30))
            #expect(
                try await store.claimIdempotencyKey(scope: "s", key: "k", requestHash: "r", lease: crashed, at: Self.t0)
                    == .claimed)

            // While the lease runs, a retry sees the claim in progress.
            let early = IdempotencyLease(token: "early", expiresAt: Self.t0.addingTimeInterval(40))
            guard
                case .existing(let running) = try await store.claimIdempotencyKey(
                    scope: "s", key: "k", requestHash: "r", lease: early, at: Self.t0.addingTimeInterval(10))
            else {
                Issue.record("a live lease must not be taken over")
                return
            }
            #expect(running.state == .inProgress && running.leaseToken == "dead")
            // A renewal by the holder pushes the expiry; by anyone else it does nothing.
            #expect(
                try await store.renewIdempotencyLease(scope: "s", key: "k", token: "dead", until: Self.t0.addingTimeInterval(50)))
            #expect(
                try await store.renewIdempotencyLease(scope: "s", key: "k", token: "early", until: Self.t0.addingTimeInterval(99))
                    == false)

            // After expiry: another request body cannot take it, the same one can, exactly once.
            let later = Self.t0.addingTimeInterval(51)
            guard
                case .existing = try await store.claimIdempotencyKey(
                    scope: "s", key: "k", requestHash: "other", lease: IdempotencyLease(token: "x", expiresAt: later), at: later)
            else {
                Issue.record("a different request must not take the key over")
                return
            }
            let takeovers = try await withThrowingTaskGroup(of: IdempotencyClaim.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await store.claimIdempotencyKey(
                            scope: "s", key: "k", requestHash: "r",
                            lease: IdempotencyLease(token: "retry\(index)", expiresAt: later.addingTimeInterval(30)), at: later)
                    }
                }
                return try await group.reduce(into: [IdempotencyClaim]()) { $0.append($1) }
            }
            #expect(takeovers.filter { $0 == .tookOver(previousEffect: nil) }.count == 1)
            // The crashed holder, should it wake up, can no longer complete or renew.
            #expect(try await store.completeIdempotencyKey(scope: "s", key: "k", token: "dead", status: 201, body: "b") == false)
            #expect(
                try await store.renewIdempotencyLease(scope: "s", key: "k", token: "dead", until: later.addingTimeInterval(99))
                    == false)
            let record = try #require(try await store.idempotencyRecord(scope: "s", key: "k"))
            #expect(record.state == .inProgress && record.leaseToken?.hasPrefix("retry") == true)
        }
    }
}

@Suite struct PostgresInCITests {
    @Test func continuousIntegrationRunsThePostgreSQLSuites() {
        // CI must never skip PostgreSQL silently: .ci/run starts a server and sets the URL.
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            #expect(TestEngine.postgresURL != nil, "CI=true but PROVISIO_TEST_POSTGRES_URL is not set")
        }
        #expect(TestEngine.available.contains(.sqlite))
    }
}

extension SQLProvisioStore {
    /// A tenant with one full key whose hash is `hash-<tenant id>`.
    func insertTenant(_ tenant: TenantRecord) async throws {
        try await insertTenant(
            tenant,
            firstKey: APIKeyRecord(
                id: "key_\(tenant.id)", tenantID: tenant.id, name: "default", scope: .full, keyHash: "hash-\(tenant.id)",
                createdAt: tenant.createdAt))
    }
}
