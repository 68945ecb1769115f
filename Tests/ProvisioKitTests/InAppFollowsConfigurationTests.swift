#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioAPI
    import ProvisioClient
    import ProvisioCore
    import ProvisioKit
    import Testing

    /// The in-app add sends what the app's PassKit configuration asked for: the scheme reaches
    /// Provisio, which seals for it, and the sandbox's Apple service opens it; the device goes as
    /// `device_type` when PassKit can only add to one. Against a real Provisio on loopback.
    @Suite struct InAppFollowsConfigurationTests {
        @Test func anRSAConfigurationReachesTheServerAsRSAAndTheSandboxOpensIt() async throws {
            try await LiveProvisio.run { live in
                let device = await InAppProvisioningTests.device(live)
                let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
                let card = try #require(try await client.cards().first { $0.id == live.cardID })
                let configuration = InAppProvisioning.requestConfiguration(for: card, encryptionScheme: .rsaV2)
                #expect(configuration?.encryptionScheme == .RSA_V2)

                let result = await PassKitStandInEnvironment.$device.withValue(device) {
                    await Self.add(card, encryptionScheme: .rsaV2, client: client)
                }
                guard case .added(let pass) = result else {
                    Issue.record("expected a pass, got \(result)")
                    return
                }
                // PassKit was asked for RSA_V2, Provisio sealed for RSA_V2, and Apple's service
                // (which opens with the session's scheme) accepted it: the pass is active.
                #expect(device.addRequests.map(\.encryptionScheme) == ["RSA_V2"])
                let attempts = try await live.provisioningAttempts()
                #expect(attempts.map(\.encryptionScheme) == [.rsaV2])
                #expect(attempts.map(\.outcome) == [.succeeded])
                #expect(pass.activationState == .activated)
                #expect(try await live.issuerTokens().map(\.state) == [.active])
            }
        }

        @Test func theDeviceTypeIsSentWhenPassKitCanOnlyAddToOneDevice() async throws {
            try await LiveProvisio.run { live in
                let device = await InAppProvisioningTests.device(live)
                let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
                let card = try #require(try await client.cards().first { $0.id == live.cardID })
                try await PassKitStandInEnvironment.$device.withValue(device) {
                    let library = await MainActor.run { WalletLibrary(isWatchPaired: { true }) }

                    // On neither device: the cardholder picks in PassKit's sheet, so nothing is said.
                    let first = await MainActor.run { library.deviceType(forAdding: card, issuerCards: [card]) }
                    #expect(first == nil)
                    guard case .added = await Self.add(card, deviceType: first, client: client) else {
                        Issue.record("the add to the iPhone failed")
                        return
                    }

                    // On the iPhone now: PassKit can only add to the Watch, and Provisio is told so.
                    await device.refresh()
                    let second = await MainActor.run { library.deviceType(forAdding: card, issuerCards: [card]) }
                    #expect(second == .watch)
                    device.choose(.add(.watch))
                    guard case .added(let watchPass) = await Self.add(card, deviceType: second, client: client) else {
                        Issue.record("the add to the Watch failed")
                        return
                    }
                    #expect(watchPass.device == .watch)

                    let attempts = try await live.provisioningAttempts()
                    #expect(attempts.map(\.deviceType) == [nil, .watch])
                    #expect(attempts.map(\.encryptionScheme) == [.eccV2, .eccV2])

                    // On both: nothing left to add to.
                    await device.refresh()
                    let third = await MainActor.run { library.deviceType(forAdding: card, issuerCards: [card]) }
                    #expect(third == nil)
                }
                // Without a paired Watch the iPhone is the only device.
                let unpaired = await MainActor.run {
                    PassKitStandInEnvironment.$device.withValue(
                        SandboxPassKitDevice(wallet: live.wallet, apple: live.apple, network: live.network)
                    ) {
                        WalletLibrary(isWatchPaired: { false }).deviceType(
                            forAdding: WalletCard(id: "card_x", primaryAccountIdentifier: "pai_x", title: "X", last4: "4242"),
                            issuerCards: [])
                    }
                }
                #expect(unpaired == .phone)
            }
        }

        /// The add with the app's own configuration for `encryptionScheme` (built here, on the
        /// main actor, as an app builds it).
        @MainActor
        static func add(
            _ card: WalletCard, encryptionScheme: EncryptionScheme = .eccV2, deviceType: DeviceType? = nil,
            client: ProvisioMobileClient
        ) async -> AddCardResult {
            let presenter = UIViewController(nibName: nil, bundle: nil)
            let configuration = InAppProvisioning.requestConfiguration(for: card, encryptionScheme: encryptionScheme)
            return await InAppProvisioning(provider: ProvisioClientPayloadProvider(client: client)).add(
                card, configuration: configuration, deviceType: deviceType, presentingFrom: presenter)
        }
    }
#endif
