import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// A card replaced over MDES (`POST /v2/token/update` with the new number, encrypted for
/// Mastercard's key), and the hidden-secret check: neither the old nor the new number is in any
/// answer, log line, audit line or database row, whichever dialect carried it.
@Suite(.timeLimit(.minutes(10))) struct CardReplacementSecrecyTests {
    static let newPAN = CardReplacementTests.newPAN

    @Test(arguments: TestEngine.available)
    func aReplacementReachesTheSandboxTokenOverMDES(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(
                server, oauthVerifier: MDESReissueTests.verifier, mastercardKey: MDESReissueTests.mastercardKey
            ) { h in
                let api = server.api(h.apiKey)
                let added = try #require(await h.network.outcome(sessionID: try await h.add().sessionID))
                let serial = try #require(added.pass?.serialNumber)
                _ = try await api.setNetworkSettings(
                    body: .json(
                        MDESReissueTests.settings(h.sandboxURL, certificate: MDESReissueTests.mastercardKey.certificatePEM))
                ).ok

                let replaced = try await api.replaceCard(
                    path: .init(id: h.cardID), body: .json(.init(pan: Self.newPAN, expiryMonth: 4, expiryYear: 2032))
                ).ok.body.json
                #expect(replaced.tokenUpdates?.map(\.outcome) == [.updated], "\(String(describing: replaced.tokenUpdates))")
                let token = try #require(await h.network.token(networkTokenRef: added.networkTokenRef))
                #expect(token.fundingPrimaryAccountNumber.unmaskedDigits == Self.newPAN)
                #expect(token.fundingExpiry.slashed == "04/32")
                let pass = await h.wallet.pass(serialNumber: serial)
                #expect(
                    pass?.primaryAccountNumberSuffix == "5556"
                        && pass?.deviceAccountIdentifier == added.pass?.deviceAccountIdentifier)
                #expect(server.logs.count(containing: "MDES token update") == 1)

                // Without Mastercard's certificate the network is not told: refused, recorded,
                // visible in the audit log, and not retried.
                _ = try await api.setNetworkSettings(body: .json(MDESReissueTests.settings(h.sandboxURL, certificate: nil))).ok
                let refused = try await api.replaceCard(
                    path: .init(id: h.cardID), body: .json(.init(pan: "4242424242424242", expiryMonth: 4, expiryYear: 2032))
                ).ok.body.json
                #expect(refused.tokenUpdates?.first?.errorCode == .networkRefused)
                let changes = try await server.services.tokenChanges.store.tokenChanges(tokenID: added.issuerTokenID)
                #expect(changes.map(\.state) == [.refused] && changes.first?.lastErrorCode == "network_refused")
                let trail = try await api.listAuditEvents(query: .init(targetType: "token", targetId: added.issuerTokenID))
                    .ok.body.json.data
                #expect(
                    trail.first?.action == "token.card_change_refused" && trail.first?.reason == "replacement: network_refused")
                server.clock.advance(by: 86_400)
                #expect(try await server.services.tokenChanges.deliverDue() == 0)

                try await Self.expectNoPAN(
                    [SandboxNetworkHarness.pan, Self.newPAN, "4242424242424242"], server: server, tenantID: h.tenantID)
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func noNumberIsInClearAnywhereAfterAReplacement(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                _ = try #require(await h.network.outcome(sessionID: try await h.add().sessionID))
                let replaced = try await api.replaceCard(
                    path: .init(id: h.cardID), headers: .init(idempotencyKey: "replace-1"),
                    body: .json(.init(pan: Self.newPAN, expiryMonth: 9, expiryYear: 2031))
                ).ok.body.json
                #expect(replaced.tokenUpdates?.map(\.outcome) == [.updated])
                // The same request again is answered as the first was.
                let replayed = try await api.replaceCard(
                    path: .init(id: h.cardID), headers: .init(idempotencyKey: "replace-1"),
                    body: .json(.init(pan: Self.newPAN, expiryMonth: 9, expiryYear: 2031))
                ).ok
                let replayedLast4 = try replayed.body.json.last4
                #expect(replayed.headers.idempotentReplayed == ._true && replayedLast4 == "5556")
                // Refusals do not echo the number either; and a network that is down leaves a
                // pending change that holds none.
                #expect(
                    try await api.replaceCard(
                        path: .init(id: h.cardID), body: .json(.init(pan: "5555555555554444", expiryMonth: 9, expiryYear: 2031))
                    ).refused(422, .cardNetworkMismatch))
                _ = try await api.setNetworkSettings(body: .json(.init(url: "http://127.0.0.1:9", apiKey: h.sandboxKey))).ok
                _ = try await api.replaceCard(
                    path: .init(id: h.cardID), body: .json(.init(pan: "4242424242424242", expiryMonth: 9, expiryYear: 2031))
                ).ok
                try await Self.expectNoPAN(
                    [SandboxNetworkHarness.pan, Self.newPAN, "4242424242424242", "5555555555554444"], server: server,
                    tenantID: h.tenantID)
            }
        }
    }

    /// No answer, log line, audit line or database row holds any of `pans` in clear.
    static func expectNoPAN(_ pans: [String], server: TestServer, tenantID: String) async throws {
        let audit = try await server.services.audit.events(
            tenantID: tenantID, filter: AuditFilter(), cursor: nil, limit: 100
        ).items.map { "\($0)" }.joined(separator: "\n")
        #expect(audit.contains("card.replaced"), "the audit log was read")
        let stored = try await MDESReissueTests.databaseText(server)
        #expect(stored.count > 1000, "the database was read")
        for pan in pans {
            for answer in server.answers.all {
                #expect(!answer.text.contains(pan), "PAN \(pan.suffix(4)) in \(answer.operationID)")
            }
            #expect(!server.logs.text.contains(pan), "PAN \(pan.suffix(4)) in the logs")
            #expect(!audit.contains(pan), "PAN \(pan.suffix(4)) in the audit log")
            #expect(!stored.contains(pan), "PAN \(pan.suffix(4)) in the database")
        }
    }
}
