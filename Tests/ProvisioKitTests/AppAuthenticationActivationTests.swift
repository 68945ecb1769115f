#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioClient
    import ProvisioCore
    import ProvisioKit
    import Testing

    /// In-app authentication: the app authenticated the cardholder itself, shows the card's last
    /// four digits and the device, and activates the pending token only when they confirm —
    /// against a live Provisio, the sandbox network activating the token and Wallet's pass.
    @Suite struct AppAuthenticationActivationTests {
        /// A provider the app-authentication path must never use (it needs no activation data).
        static let noTAV = ClosureActivationDataProvider { _ in
            Issue.record("in-app authentication asked for activation data")
            throw SetupError("not expected")
        }

        @Test func aConfirmedCardIsActivatedThroughTheNetwork() async throws {
            try await LiveProvisio.run { live in
                let device = await InAppProvisioningTests.device(live)
                try await PassKitStandInEnvironment.$device.withValue(device) {
                    let pass = try await InAppVerificationTests.addYellow(live, device: device)
                    #expect(pass.activationState == .requiresActivation)
                    let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
                    let pending = try #require(try await client.walletTokens().first)
                    #expect(pending.state == .pendingVerification)
                    let row = try #require(CardDevicesModel(cardID: live.cardID, tokens: [pending]).row(id: pending.id))
                    #expect(row.canActivateInApp && row.actions == [.delete])

                    let asked = Locked<[AppActivationConfirmation]>([])
                    let verification = await InAppVerification(
                        library: WalletLibrary(isWatchPaired: { true }), provider: Self.noTAV)
                    let result = await verification.activateAfterAppAuthentication(pending, client: client) { confirmation in
                        asked.withLock { $0.append(confirmation) }
                        return true
                    }
                    guard case .activated(let activated) = result else {
                        Issue.record("expected activation, got \(result)")
                        return
                    }
                    #expect(asked.value.map(\.prompt) == ["Activate the card ending 1111 on this iPhone?"])
                    #expect(activated.id == pending.id && activated.state == .active)
                    #expect(live.connector.received.map(\.word) == ["app_authentication"])
                    #expect(await live.wallet.pass(serialNumber: pass.serialNumber)?.activationState == .activated)
                    #expect(try await live.issuerTokens().first?.state == .active)
                    #expect(try await client.walletTokens().first?.state == .active)
                }
            }
        }

        @Test func aDeclinedConfirmationSendsNothing() async throws {
            try await LiveProvisio.run { live in
                let device = await InAppProvisioningTests.device(live)
                try await PassKitStandInEnvironment.$device.withValue(device) {
                    let pass = try await InAppVerificationTests.addYellow(live, device: device)
                    let transport = RecordingTransport()
                    let client = ProvisioMobileClient(
                        baseURL: live.baseURL, credential: .mobileSession(live.mobileSession), transport: transport)
                    let pending = try #require(try await client.walletTokens().first)
                    let verification = await InAppVerification(
                        library: WalletLibrary(isWatchPaired: { true }), provider: Self.noTAV)

                    let result = await verification.activateAfterAppAuthentication(pending, client: client) { _ in false }
                    #expect(result == .declined)
                    // Only the list left the app; the network heard nothing; the pass still waits.
                    #expect(transport.operations == ["listMobileTokens"])
                    #expect(live.connector.received.isEmpty)
                    #expect(await live.wallet.pass(serialNumber: pass.serialNumber)?.activationState == .requiresActivation)
                    #expect(try await live.issuerTokens().first?.state == .pendingVerification)

                    // A token that is not pending is refused before the cardholder is asked.
                    let active = try await client.activateTokenAfterAppAuthentication(id: pending.id)
                    #expect(active.state == .active)
                    let askedAgain = Locked(false)
                    let again = await verification.activateAfterAppAuthentication(active, client: client) { _ in
                        askedAgain.withLock { $0 = true }
                        return true
                    }
                    guard case .failed(let refused) = again else {
                        Issue.record("an active token was activated again: \(again)")
                        return
                    }
                    #expect(refused.code == .tokenInvalidTransition && refused.httpStatus == nil)
                    #expect(refused.userMessage == "This card is already active on that device.")
                    #expect(!askedAgain.value)
                    #expect(transport.operations == ["listMobileTokens", "activateMobileToken"])

                    // The server's own refusal comes back typed: a stale list's token already active.
                    let stale = await verification.activateAfterAppAuthentication(pending, client: client) { _ in true }
                    guard case .failed(let server) = stale else {
                        Issue.record("expected the server's refusal, got \(stale)")
                        return
                    }
                    #expect(server.code == .tokenInvalidTransition && server.httpStatus == 409)
                }
            }
        }
    }
#endif
