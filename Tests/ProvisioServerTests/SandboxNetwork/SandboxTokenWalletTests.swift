import Foundation
import ProvisioCore
import ProvisioSandbox
import Testing

/// The network reaches the wallet a token lives in through `SandboxTokenWallet`; for Apple's
/// adds that is Apple Wallet, on the device the add came from, and the issuer hears so.
@Suite struct SandboxTokenWalletTests {
    @Test(arguments: TestEngine.available)
    func appleTokenRecordsItsWalletAndDevice(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server) { h in
                let submission = try await h.add(on: .watch)
                let outcome = try #require(await h.network.outcome(sessionID: submission.sessionID))
                let token = try #require(await h.network.token(networkTokenRef: outcome.networkTokenRef))
                #expect(token.wallet == .applePay)
                #expect(token.device == (try h.wallet.device(.watch)))
                #expect(outcome.pass?.serialNumber == token.passSerialNumber)
                #expect(h.wallet.walletKind == .applePay)

                let issued = try await h.issuerToken(outcome.issuerTokenID)
                #expect(issued.wallet == .applePay && issued.deviceType == .watch)

                // Through the boundary: the handle is the pass's serial number on that device.
                let handle = try #require(token.passSerialNumber)
                try await h.wallet.setState(.suspended, handle: handle, on: token.device)
                #expect(await h.wallet.pass(serialNumber: handle, on: .watch)?.activationState == .suspended)
                try await h.wallet.remove(handle: handle, on: token.device)
                #expect(await h.wallet.pass(serialNumber: handle) == nil)
            }
        }
    }
}
