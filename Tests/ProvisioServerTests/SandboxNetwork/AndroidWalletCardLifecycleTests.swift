import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

/// The card's own life reaches the Android wallets as it reaches Apple's: a reissue carries the
/// new details through the network to both wallets' tokens, and closing the card deletes them —
/// gone from Google Wallet, `DISPOSED` in Samsung Wallet.
@Suite struct AndroidWalletCardLifecycleTests {
    @Test(arguments: TestEngine.available)
    func aReissueAndTheCardsCloseReachGoogleAndSamsung(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let api = server.api(h.apiKey)
                let google = try await h.googleWallet(keys)
                let pushed = try await h.pushUPP(into: google, ProvisioCredentialsGenerator(harness: h))
                let samsung = SandboxSamsungWallet(tokenService: h.network)
                let added = try await h.addToSamsung(samsung)
                #expect(pushed.tokenState == .active && added.cardStatus == .active)
                let (samsungToken, _) = try await h.tokens(of: added)
                let googleToken = try #require(await h.network.allTokens().first { $0.wallet == .googlePay })

                // A reissue: the network takes the new expiry for both wallets' tokens.
                let reissued = try await api.updateCard(
                    path: .init(id: h.cardID), body: .json(.init(expiryMonth: 4, expiryYear: 2034))
                ).ok.body.json
                #expect(reissued.tokenUpdates?.count == 2)
                #expect(reissued.tokenUpdates?.allSatisfy { $0.outcome == .updated } == true)
                for ref in [googleToken.networkTokenRef, samsungToken.networkTokenRef] {
                    #expect(await h.network.token(networkTokenRef: ref)?.fundingExpiry.slashed == "04/34")
                }
                #expect(try await h.state(in: google, pushed) == .active)
                #expect(try await h.samsungState(added, in: samsung) == .active)

                // Closing the card deletes both tokens at the network, which removes them.
                let closed = try await api.closeCard(path: .init(id: h.cardID)).ok.body.json
                #expect(closed.tokenUpdates?.count == 2)
                #expect(
                    closed.tokenUpdates?.allSatisfy { $0.outcome == .deleted } == true,
                    "\(String(describing: closed.tokenUpdates))")
                #expect(await google.listTokens().isEmpty, "Google Wallet has no deleted state: the token is gone")
                #expect(try await h.samsungState(added, in: samsung) == .disposed)
                let tokens = try await api.listTokens(query: .init(cardId: h.cardID)).ok.body.json.data
                #expect(
                    tokens.count == 2 && tokens.allSatisfy { $0.state == .deleted }, "\(tokens.map { ($0.state, $0.reasonCode) })"
                )
                for listed in tokens {
                    let last = try await api.getToken(path: .init(id: listed.id)).ok.body.json.events?.last
                    #expect(last?.toState == .deleted && last?.reasonCode == "card_closed", "\(String(describing: last))")
                }
                #expect(Set(tokens.map(\.wallet)) == [.googlePay, .samsungPay])
            }
        }
    }
}
