#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioClient
    import ProvisioCore
    import ProvisioKit
    import Testing

    /// The in-app add, driven through the PassKit stand-in backed by the sandbox wallet, against a
    /// real Provisio on loopback.
    @Suite struct InAppProvisioningTests {
        @MainActor
        static func add(_ card: WalletCard, provider: any ProvisioPayloadProvider, deadline: TimeInterval = 15) async
            -> AddCardResult
        {
            let presenter = UIViewController(nibName: nil, bundle: nil)
            let result = await InAppProvisioning(provider: provider, deadline: deadline).add(card, presentingFrom: presenter)
            #expect(presenter.presentedViewController == nil, "the add sheet is dismissed")
            return result
        }

        static func device(_ live: LiveProvisio) async -> SandboxPassKitDevice {
            let device = SandboxPassKitDevice(wallet: live.wallet, apple: live.apple, network: live.network)
            await device.refresh()
            return device
        }

        @Test func addsThePassEndToEndAndItIsActivated() async throws {
            try await LiveProvisio.run { live in
                let device = await Self.device(live)
                let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
                let cards = try await client.cards()
                let card = try #require(cards.first { $0.id == live.cardID })
                #expect(card.last4 == "1111")
                #expect(card.network == .visa)
                let result = try await PassKitStandInEnvironment.$device.withValue(device) {
                    await Self.add(card, provider: ProvisioClientPayloadProvider(client: client))
                }
                guard case .added(let pass) = result else {
                    Issue.record("expected a pass, got \(result)")
                    return
                }
                #expect(pass.device == .phone)
                #expect(pass.activationState == .activated)
                #expect(pass.primaryAccountIdentifier == card.primaryAccountIdentifier)
                #expect(pass.primaryAccountNumberSuffix == "1111")
                #expect(device.requestHandlerCalls.count == 1)
                #expect(device.requestHandlerCalls.values.allSatisfy { $0 == 1 })
                let walletPass = try #require(
                    await live.wallet.pass(primaryAccountIdentifier: card.primaryAccountIdentifier, on: .phone))
                #expect(walletPass.activationState == .activated)
                #expect(walletPass.serialNumber == pass.serialNumber)
                let tokens = try await live.issuerTokens()
                #expect(tokens.count == 1)
                #expect(tokens.first?.state == .active)
                // What PassKit was asked to show.
                let shown = try #require(device.addRequests.first)
                #expect(shown.encryptionScheme == "ECC_V2")
                #expect(shown.primaryAccountIdentifier == card.primaryAccountIdentifier)
                #expect(shown.primaryAccountSuffix == "1111")
                #expect(shown.cardholderName == "Jane Appleseed")
                #expect(shown.paymentNetwork == "Visa")
            }
        }

        @Test func aFailingPayloadCallCompletesOnceWithTheServersTypedError() async throws {
            try await LiveProvisio.run { live in
                let device = await Self.device(live)
                let good = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
                let card = try #require(try await good.cards().first)
                let bad = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession("prv_ms_not_a_session"))
                let result = try await PassKitStandInEnvironment.$device.withValue(device) {
                    await Self.add(card, provider: ProvisioClientPayloadProvider(client: bad))
                }
                guard case .failed(let error) = result else {
                    Issue.record("expected a failure, got \(result)")
                    return
                }
                #expect(error.code == ProvisioError.Code(received: "invalid_credentials"))
                #expect(error.httpStatus == 401)
                #expect(error.userMessage == "Your session has expired. Please sign in again.")
                #expect(error.requestID != nil)
                #expect(!error.message.contains(LiveProvisio.pan) && !error.description.contains(LiveProvisio.pan))
                try await Task.sleep(for: .milliseconds(200))
                #expect(device.requestHandlerCalls.values.reduce(0, +) == 1)
                #expect(await live.wallet.passes().isEmpty)
                #expect(try await live.issuerTokens().isEmpty)
            }
        }

        @Test func theDeadlineAnswersPassKitBeforeTwentySecondsWhenTheProviderHangs() async throws {
            try await LiveProvisio.run { live in
                let device = await Self.device(live)
                let card = WalletCard(
                    id: live.cardID, primaryAccountIdentifier: "pai_hang", title: "Kit Card", last4: "1111",
                    cardholderName: "Jane Appleseed", network: .visa)
                let cancelled = Flag()
                let hanging = ClosurePayloadProvider { _, _, _ in
                    do {
                        try await Task.sleep(for: .seconds(60))
                    } catch {
                        cancelled.set()
                        throw error
                    }
                    throw ProvisioError(
                        .init("unreachable"), "the provider should have been cancelled")
                }
                let clock = ContinuousClock()
                let start = clock.now
                let result = await PassKitStandInEnvironment.$device.withValue(device) {
                    await Self.add(card, provider: hanging, deadline: 0.3)
                }
                let elapsed = clock.now - start
                guard case .failed(let error) = result else {
                    Issue.record("expected the deadline to fire, got \(result)")
                    return
                }
                #expect(error.code == .addDeadlineExceeded)
                #expect(elapsed >= .milliseconds(300))
                // What matters is PassKit's 20-second limit (the provider would hang 60 s); a
                // tighter bound only measured the machine's load (6.7 s seen under a full CI run).
                #expect(elapsed < .seconds(20))
                try await Task.sleep(for: .milliseconds(300))
                #expect(device.requestHandlerCalls.values.reduce(0, +) == 1)
                #expect(cancelled.isSet, "the hanging provider is cancelled")
                #expect(await live.wallet.passes().isEmpty)
            }
        }

        @Test func theCardholderCancelling() async throws {
            try await LiveProvisio.run { live in
                let device = await Self.device(live)
                device.choose(.cancel)
                let called = Flag()
                let provider = ClosurePayloadProvider { _, _, _ in
                    called.set()
                    throw ProvisioError(.init("unexpected"), "not called")
                }
                let card = WalletCard(
                    id: live.cardID, primaryAccountIdentifier: "pai_cancel", title: "Kit Card", last4: "1111")
                let result = await PassKitStandInEnvironment.$device.withValue(device) {
                    await Self.add(card, provider: provider)
                }
                #expect(result == .cancelled)
                #expect(!called.isSet)
                #expect(device.requestHandlerCalls.isEmpty)
            }
        }

        @Test func canAddCardPerDeviceFollowsThePassLibrary() async throws {
            try await LiveProvisio.run { live in
                let device = await Self.device(live)
                let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
                let card = try #require(try await client.cards().first)
                let sibling = WalletCard(
                    id: "card_other", primaryAccountIdentifier: "pai_other", title: "Other", last4: "2222",
                    network: .mastercard)
                try await PassKitStandInEnvironment.$device.withValue(device) {
                    let before = await Self.decision(card, [card, sibling])
                    #expect(before.phone.reason == .notOnDevice)
                    #expect(before.watch.reason == .notOnDevice)

                    let provider = ProvisioClientPayloadProvider(client: client)
                    guard case .added = await Self.add(card, provider: provider) else {
                        Issue.record("the add to the iPhone failed")
                        return
                    }
                    let afterPhone = await Self.decision(card, [card, sibling])
                    #expect(afterPhone.phone.reason == .alreadyOnThisDevice)
                    #expect(afterPhone.watch.reason == .notOnDevice)
                    #expect(afterPhone.addableDevices == [.watch])
                    #expect(await Self.decision(sibling, [card, sibling]).phone.reason == .notOnDevice)

                    device.choose(.add(.watch))
                    guard case .added(let watchPass) = await Self.add(card, provider: provider) else {
                        Issue.record("the add to the Watch failed")
                        return
                    }
                    #expect(watchPass.device == .watch)
                    let afterWatch = await Self.decision(card, [card, sibling])
                    #expect(afterWatch.watch.reason == .alreadyOnWatch)
                    #expect(!afterWatch.showsAddButton)
                    let status = await MainActor.run {
                        WalletLibrary(isWatchPaired: { true }).status(of: card, on: .watch, issuerCards: [card])
                    }
                    #expect(status == .activated)
                }
                // Without a paired Watch, and on a device that cannot add passes.
                let unpaired = await MainActor.run {
                    PassKitStandInEnvironment.$device.withValue(device) {
                        WalletLibrary(isWatchPaired: { false }).addDecision(for: sibling, issuerCards: [card, sibling])
                    }
                }
                #expect(unpaired.watch.reason == .noPairedWatch)
                #expect(unpaired.phone.reason == .notOnDevice)
                let unsupported = await MainActor.run {
                    WalletLibrary(isWatchPaired: { true }).addDecision(for: sibling, issuerCards: [card, sibling])
                }
                #expect(unsupported.phone.reason == .unsupportedDevice)
                #expect(!unsupported.showsAddButton)
            }
        }

        @MainActor
        static func decision(_ card: WalletCard, _ cards: [WalletCard]) -> AddCardDecision {
            WalletLibrary(isWatchPaired: { true }).addDecision(for: card, issuerCards: cards)
        }
    }

    /// A flag set from any task.
    final class Flag: Sendable {
        private let value = Locked(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.value }
    }
#endif
