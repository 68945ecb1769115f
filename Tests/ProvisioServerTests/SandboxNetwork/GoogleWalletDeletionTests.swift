import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

/// The cardholder deletes a Google Wallet token, from the issuer's app (`requestDeleteToken`) or
/// in Google Wallet: the network reports it to Provisio, and the token is gone from the wallet.
@Suite struct GoogleWalletDeletionTests {
    @Test(arguments: TestEngine.available)
    func theCardholdersDeletionReachesProvisio(_ engine: TestEngine) async throws {
        let keys = try await GoogleTestKeys.shared()
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let google = try await h.googleWallet(keys)
                let first = try await h.pushUPP(into: google, ProvisioCredentialsGenerator(harness: h))
                let second = try await h.pushTokenize(try await h.googlePushData(), into: google)
                #expect(await google.listTokens().count == 2)

                // Another TSP's id is not found; nothing changes.
                let wrongTSP = await networkError {
                    try await google.requestDeleteToken(tokenServiceProvider: .mastercard, issuerTokenID: first.issuerTokenID)
                }
                #expect(wrongTSP?.code == .sandboxGoogleTokenNotFound)

                try await google.requestDeleteToken(tokenServiceProvider: .visa, issuerTokenID: first.issuerTokenID)
                #expect(await google.listTokens().map(\.issuerTokenID) == [second.issuerTokenID])
                let deleted = try await h.issuerToken(first.issuerTokenID)
                #expect(deleted.state == .deleted && deleted.networkState == "removed_from_wallet")
                let gone = await networkError { try await h.state(in: google, first) }
                #expect(gone?.code == .sandboxGoogleTokenNotFound)

                // In Google Wallet's own screens.
                try await google.deleteInWallet(issuerTokenID: second.issuerTokenID)
                #expect(await google.listTokens().isEmpty)
                #expect(try await h.issuerToken(second.issuerTokenID).state == .deleted)
                #expect(await h.network.allTokens().allSatisfy { $0.state == .deleted })
                let twice = await networkError { try await google.deleteInWallet(issuerTokenID: second.issuerTokenID) }
                #expect(twice?.code == .sandboxGoogleTokenNotFound)
                #expect(!(await google.isTokenized(lastDigits: "1111", network: .visa, tokenServiceProvider: .visa)))
            }
        }
    }
}
