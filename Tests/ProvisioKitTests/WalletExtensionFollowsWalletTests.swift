#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioAPI
    import ProvisioClient
    import ProvisioCore
    import ProvisioKit
    import Testing

    /// The non-UI extension, driven by the sandbox's Wallet (`PassKitStandInWallet`), uses the
    /// configuration Wallet passes: its scheme reaches Provisio and the sandbox's Apple service
    /// opens the answer; the entry's device goes as `device_type`; a configuration for another
    /// card is refused. Wallet's clock never moves here, so no limit fires on a slow machine.
    @Suite struct WalletExtensionFollowsWalletTests {
        /// The app's App Group written, the cardholder signed in: the handler and the card.
        static func signedIn(_ live: LiveProvisio) async throws -> (URL, RecordingHandler, WalletCard) {
            let (container, storage, sessions, handler) = try WalletExtensionHandlerTests.extensionParts(live)
            let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
            let card = try #require(try await client.cards().first { $0.id == live.cardID })
            let extensionCard = WalletCard(
                id: card.id, primaryAccountIdentifier: card.primaryAccountIdentifier, title: "Kit Visa", last4: card.last4,
                cardholderName: card.cardholderName, network: card.network, artReference: "kit-visa.png")
            let account = ExtensionAccount(issuerID: "kit-bank", consumerID: "cust_kit", cards: [extensionCard])
            try storage.save(ExtensionConfiguration(accounts: [account], savedAt: Date()))
            try storage.saveArt(WalletExtensionHandlerTests.png(), named: "kit-visa.png")
            try sessions.signIn(
                StoredExtensionAccount(
                    accountIDs: [account.id], credential: live.mobileSession, expiresAt: Date().addingTimeInterval(600)))
            return (container, handler, extensionCard)
        }

        @Test func anRSAConfigurationFromWalletIsSealedForRSAAndTheWatchIsSent() async throws {
            try await LiveProvisio.run { live in
                let (container, handler, card) = try await Self.signedIn(live)
                defer { try? FileManager.default.removeItem(at: container) }
                let device = SandboxPassKitDevice(wallet: live.wallet, apple: live.apple, network: live.network)
                let wallet = PassKitStandInWallet(device: device, clock: ManualClock())

                #expect(
                    await wallet.visibility(of: handler)
                        == .shown(requiresAuthentication: false, passEntriesAvailable: true, remotePassEntriesAvailable: true))
                var entry = try #require(try await wallet.entries(of: handler, remote: true).first)
                #expect(entry.identifier == "watch:\(card.id)" && entry.isRemote)
                #expect(entry.request?.encryptionScheme == "ECC_V2")
                #expect(entry.request?.primaryAccountIdentifier == card.primaryAccountIdentifier)

                // Wallet asks for RSA_V2: its certificate chain is then RSA's, and only an
                // RSA_V2 answer opens.
                entry.request?.encryptionScheme = "RSA_V2"
                let pass = try await wallet.add(entry, through: handler)
                #expect(pass.isRemote && pass.activationState == .activated, "\(handler.errors.all)")
                #expect(device.addRequests.map(\.encryptionScheme) == ["RSA_V2"])
                let attempts = try await live.provisioningAttempts()
                #expect(attempts.map(\.encryptionScheme) == [.rsaV2])
                #expect(attempts.map(\.deviceType) == [.watch])
                #expect(try await live.issuerTokens().map(\.state) == [.active])

                // The iPhone's entry goes as a phone, with the entry's own scheme.
                let phone = try #require(try await wallet.entries(of: handler, remote: false).first)
                let phonePass = try await wallet.add(phone, through: handler)
                #expect(!phonePass.isRemote)
                let both = try await live.provisioningAttempts()
                #expect(both.map(\.deviceType) == [.watch, .phone])
                #expect(both.map(\.encryptionScheme) == [.rsaV2, .eccV2])
                #expect(handler.errors.all.isEmpty, "\(handler.errors.all)")
            }
        }

        @Test func aConfigurationForAnotherCardIsRefused() async throws {
            try await LiveProvisio.run { live in
                let (container, handler, _) = try await Self.signedIn(live)
                defer { try? FileManager.default.removeItem(at: container) }
                let device = SandboxPassKitDevice(wallet: live.wallet, apple: live.apple, network: live.network)
                let wallet = PassKitStandInWallet(device: device, clock: ManualClock())
                var entry = try #require(try await wallet.entries(of: handler, remote: false).first)
                entry.request?.primaryAccountIdentifier = "pai-someone-else"

                let other = entry
                let outcome = await SandboxWalletLimitsTests.catching { try await wallet.add(other, through: handler) }
                #expect(SandboxWalletLimitsTests.code(outcome) == PassKitStandInWalletFailure.noRequest)
                #expect(handler.errors.all == ["add_configuration_invalid"])
                #expect(try await live.provisioningAttempts().isEmpty, "Provisio was never asked")
                #expect(await live.wallet.passes().isEmpty)
            }
        }
    }
#endif
