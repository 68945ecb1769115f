import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

/// The MDES listener's `requestId` claims and the writes an operation defers to its answer
/// (`PendingWrites`), on every engine.
@Suite struct MDESExchangeStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func claim(_ id: String, body: String = "body-1", at time: Date = t0) -> MDESExchangeClaim {
        MDESExchangeClaim(
            tenantID: "ten_a", requestKey: "key-1", operation: "authorizeService", bodyDigest: body, claimID: id,
            claimedAt: time)
    }

    static func seed(_ store: SQLProvisioStore) async throws {
        try await store.insertTenant(TenantRecord(id: "ten_a", name: "Tenant A", createdAt: t0))
        try await store.insertCard(
            CardRecord(
                id: "card_1", tenantID: "ten_a", customerRef: "cust_1", accountRef: nil, panVaultRecord: "pv1.kek_x.AA.BB",
                last4: "1111", network: .mastercard, expiryMonth: 12, expiryYear: 2030, cardholderName: "Jane",
                productTitle: nil, cardArtURL: nil, primaryAccountIdentifier: "M-1", status: .active, createdAt: t0,
                updatedAt: t0))
    }

    static func token(_ reference: String) -> (TokenRecord, [TokenEventRecord]) {
        let token = TokenRecord(
            id: "tok_\(reference)", tenantID: "ten_a", cardID: "card_1", wallet: .googlePay, deviceType: .phone,
            networkTokenRef: reference, deviceAccountIdentifier: nil, tokenLast4: nil, state: .active, networkState: nil,
            decision: .approve, decisionReasons: [], createdAt: t0, updatedAt: t0)
        let event = TokenEventRecord(
            id: "tev_\(reference)", tokenID: token.id, tenantID: "ten_a", type: "token.created", fromState: nil,
            toState: .active, actor: .network, reasonCode: nil, createdAt: t0)
        return (token, [event])
    }

    @Test(arguments: TestEngine.available)
    func aRequestIdIsClaimedOnceAndAnsweredAgain(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await Self.seed(store)
            let stale = Self.t0.addingTimeInterval(-30)
            // Concurrent duplicates: one claims, the others see it running.
            let results = try await withThrowingTaskGroup(of: MDESExchangeClaimResult.self) { group in
                for index in 0..<12 {
                    group.addTask { try await store.claimMDESExchange(Self.claim("mdx_\(index)"), staleBefore: stale) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 == .claimed }.count == 1)
            #expect(results.filter { $0 == .inProgress }.count == 11)
            let otherBody = try await store.claimMDESExchange(Self.claim("mdx_x", body: "body-2"), staleBefore: stale)
            #expect(otherBody == .reusedWithOtherBody)

            // Its owner died: after the lease, another takes it over, once.
            let later = Self.t0.addingTimeInterval(31)
            let takers = try await withThrowingTaskGroup(of: MDESExchangeClaimResult.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        try await store.claimMDESExchange(
                            Self.claim("mdx_late\(index)", at: later), staleBefore: later.addingTimeInterval(-30))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(takers.filter { $0 == .claimed }.count == 1)
            #expect(takers.filter { $0 == .inProgress }.count == 5)
        }
    }

    @Test(arguments: TestEngine.available)
    func deferredWritesCommitWithTheAnswerOrNotAtAll(_ engine: TestEngine) async throws {
        try await TestDatabase.with(engine) { database in
            let store = SQLProvisioStore(handle: database.handle)
            try await Self.seed(store)
            let stale = Self.t0.addingTimeInterval(-30)
            let claim = Self.claim("mdx_1")
            #expect(try await store.claimMDESExchange(claim, staleBefore: stale) == .claimed)

            // Deferred: nothing is written until the answer is.
            let pending = PendingWrites()
            let (token, events) = Self.token("TUR-1")
            try await PendingWrites.$current.withValue(pending) {
                try await store.insertToken(token, events: events, outbox: [])
            }
            #expect(try await store.token(networkTokenRef: "TUR-1", tenantID: "ten_a") == nil)
            try await store.completeMDESExchange(claim, status: 200, answer: #"{"decision":"APPROVED"}"#, with: pending)
            #expect(try await store.token(networkTokenRef: "TUR-1", tenantID: "ten_a") == token)
            #expect(try await store.tokenEvents(tokenID: token.id).map(\.id) == ["tev_TUR-1"])
            let audit = try await store.auditEvents(
                tenantID: "ten_a", filter: AuditFilter(targetType: "token", targetID: token.id), cursor: nil, limit: 10)
            #expect(audit.items.map(\.action) == ["token.created"])
            #expect(
                try await store.claimMDESExchange(Self.claim("mdx_2"), staleBefore: stale)
                    == .answered(status: 200, answer: #"{"decision":"APPROVED"}"#))
            guard case .success = try await store.verifyAuditChain() else {
                Issue.record("the audit chain breaks")
                return
            }

            // Closed once taken: a later write runs at once.
            let (late, lateEvents) = Self.token("TUR-LATE")
            try await PendingWrites.$current.withValue(pending) {
                try await store.insertToken(late, events: lateEvents, outbox: [])
            }
            #expect(try await store.token(networkTokenRef: "TUR-LATE", tenantID: "ten_a") != nil)

            // The claim was taken over meanwhile: neither the answer nor the deferred token.
            var lost = Self.claim("mdx_lost")
            lost.requestKey = "key-2"
            #expect(try await store.claimMDESExchange(lost, staleBefore: stale) == .claimed)
            var thief = Self.claim("mdx_thief", at: Self.t0.addingTimeInterval(60))
            thief.requestKey = "key-2"
            #expect(try await store.claimMDESExchange(thief, staleBefore: Self.t0.addingTimeInterval(30)) == .claimed)
            let doomed = PendingWrites()
            let (second, secondEvents) = Self.token("TUR-2")
            try await PendingWrites.$current.withValue(doomed) {
                try await store.insertToken(second, events: secondEvents, outbox: [])
            }
            await #expect(throws: ProvisioError.self) {
                try await store.completeMDESExchange(lost, status: 200, answer: "{}", with: doomed)
            }
            #expect(try await store.token(networkTokenRef: "TUR-2", tenantID: "ten_a") == nil)

            // Released (a failure of Provisio's own): the next claim runs it again.
            try await store.releaseMDESExchange(thief)
            var retry = Self.claim("mdx_retry")
            retry.requestKey = "key-2"
            #expect(try await store.claimMDESExchange(retry, staleBefore: stale) == .claimed)
        }
    }
}
