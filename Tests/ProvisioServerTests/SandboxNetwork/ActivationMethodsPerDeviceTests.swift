import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

/// A yellow decision offers the cardholder only the ways of activating that the device can
/// use: the issuer's app on the iPhone, never on the Watch, which cannot open it; the sandbox
/// network (as Wallet) refuses a way it was not offered.
@Suite struct ActivationMethodsPerDeviceTests {
    @Test(arguments: TestEngine.available)
    func theWatchIsOfferedNoAppToApp(_ engine: TestEngine) async throws {
        try await TestServer.run(engine) { server in
            try await SandboxNetworkHarness.run(server, defaultRisk: .yellow) { h in
                var methods: [SandboxDeviceKind: [String]] = [:]
                var refs: [SandboxDeviceKind: String] = [:]
                for kind in [SandboxDeviceKind.phone, .watch] {
                    let outcome = try #require(await h.network.outcome(sessionID: try await h.add(on: kind).sessionID))
                    #expect(outcome.decision == .requireVerification)
                    methods[kind] = outcome.activationMethods
                    refs[kind] = outcome.networkTokenRef
                }
                #expect(methods[.phone] == ["app_to_app", "otp_sms", "customer_service"])
                #expect(methods[.watch] == ["otp_sms", "customer_service"])

                // The app's activation data for the Watch's token is refused: it was not offered.
                let watchToken = try #require(try await h.issuerTokens().first { $0.deviceType == .watch })
                let data = try await h.activationData(tokenID: watchToken.id)
                let refused = await networkError {
                    try await h.network.verifyActivationData(networkTokenRef: try #require(refs[.watch]), activationData: data)
                }
                #expect(refused?.code == .sandboxActivationMethodNotOffered, "\(String(describing: refused))")
                #expect(await h.network.token(networkTokenRef: try #require(refs[.watch]))?.state == .pendingActivation)
                // On the iPhone the same way works.
                let phoneToken = try #require(try await h.issuerTokens().first { $0.deviceType == .phone })
                let phoneData = try await h.activationData(tokenID: phoneToken.id)
                let activated = try await h.network.verifyActivationData(
                    networkTokenRef: try #require(refs[.phone]), activationData: phoneData)
                #expect(activated.state == .active)
            }
        }
    }
}
