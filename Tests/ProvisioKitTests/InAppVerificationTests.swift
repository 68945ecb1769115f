#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioClient
    import ProvisioCore
    import ProvisioKit
    import Testing

    /// The yellow path in the app: a pass that requires activation, Wallet's launch URL, activation
    /// data from Provisio through the issuer's backend, and Wallet activating the pass — through
    /// the PassKit stand-in backed by the sandbox wallet and network, against a live Provisio.
    @Suite struct InAppVerificationTests {
        /// The issuer backend's part: the token behind the pass, then its TAV.
        static func issuerBackend(_ live: LiveProvisio) -> ClosureActivationDataProvider {
            ClosureActivationDataProvider { pass in
                let token = try await live.issuerTokens().first { $0.deviceAccountIdentifier == pass.deviceAccountIdentifier }
                guard let id = token?.id else { throw SetupError("no token for the pass") }
                return try await live.activationData(tokenID: id)
            }
        }

        @MainActor
        static func addYellow(_ live: LiveProvisio, device: SandboxPassKitDevice) async throws -> WalletPassSnapshot {
            await live.network.setRisk(
                RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .requireVerification), forLast4: "1111")
            let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
            let card = try #require(try await client.cards().first { $0.id == live.cardID })
            let result = await InAppProvisioningTests.add(
                card, provider: ProvisioClientPayloadProvider(client: client))
            guard case .added(let pass) = result else { throw SetupError("the add failed: \(result)") }
            return pass
        }

        static func link(_ serial: String) -> URL {
            URL(string: "acmebank://wallet?passTypeIdentifier=paymentpass.com.apple&serialNumber=\(serial)&action=verify")!
        }

        @Test func walletsLaunchURLActivatesThePassWithProvisiosTAV() async throws {
            try await LiveProvisio.run { live in
                let device = await InAppProvisioningTests.device(live)
                try await PassKitStandInEnvironment.$device.withValue(device) {
                    let pass = try await Self.addYellow(live, device: device)
                    #expect(pass.activationState == .requiresActivation)
                    let verification = await InAppVerification(
                        library: WalletLibrary(isWatchPaired: { true }), provider: Self.issuerBackend(live))
                    let result = await verification.verify(Self.link(pass.serialNumber))
                    guard case .activated(let activated) = result else {
                        Issue.record("expected activation, got \(result)")
                        return
                    }
                    #expect(activated.serialNumber == pass.serialNumber && activated.activationState == .activated)
                    #expect(await live.wallet.pass(serialNumber: pass.serialNumber)?.activationState == .activated)
                    #expect(try await live.issuerTokens().first?.state == .active)
                    // A second launch finds nothing to do.
                    guard case .alreadyActive = await verification.verify(Self.link(pass.serialNumber)) else {
                        Issue.record("expected alreadyActive")
                        return
                    }
                }
            }
        }

        @Test func forgedDataUnknownPassesAndBadLinksFailClearly() async throws {
            try await LiveProvisio.run { live in
                let device = await InAppProvisioningTests.device(live)
                try await PassKitStandInEnvironment.$device.withValue(device) {
                    let pass = try await Self.addYellow(live, device: device)
                    let library = await WalletLibrary(isWatchPaired: { true })
                    // Activation data signed by someone else's key: the network refuses it.
                    let forged = await InAppVerification(
                        library: library,
                        provider: ClosureActivationDataProvider { _ in
                            Data(#"{"version":"3","signature":"AAAA"}"#.utf8).base64EncodedString()
                        })
                    guard case .failed(let refused) = await forged.verify(Self.link(pass.serialNumber)) else {
                        Issue.record("a forged TAV was accepted")
                        return
                    }
                    #expect(refused.code == .verificationRefused)
                    #expect(await live.wallet.pass(serialNumber: pass.serialNumber)?.activationState == .requiresActivation)

                    let verification = await InAppVerification(library: library, provider: Self.issuerBackend(live))
                    guard case .failed(let unknown) = await verification.verify(Self.link("NO-SUCH-SERIAL")) else {
                        Issue.record("an unknown pass was verified")
                        return
                    }
                    #expect(unknown.code == .verificationPassNotFound)
                    let bad = URL(string: "acmebank://wallet?serialNumber=\(pass.serialNumber)&action=open")!
                    guard case .failed(let invalid) = await verification.verify(bad) else {
                        Issue.record("a non-verification link was accepted")
                        return
                    }
                    #expect(invalid.code == .invalidDeepLink)
                    // The issuer's backend failing: its error comes back typed, nothing changes.
                    let failing = await InAppVerification(
                        library: library, provider: ClosureActivationDataProvider { _ in throw SetupError("backend down") })
                    guard case .failed(let backend) = await failing.verify(Self.link(pass.serialNumber)) else {
                        Issue.record("expected the backend's failure")
                        return
                    }
                    #expect(backend.code == .payloadProviderFailed)
                }
            }
        }
    }
#endif
