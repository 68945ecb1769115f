#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioClient
    import ProvisioCore
    import ProvisioCrypto
    import ProvisioKit
    import ProvisioSandbox
    import Testing

    final class Recorder: Sendable {
        private let items = Locked<[String]>([])
        func add(_ item: String) { items.withLock { $0.append(item) } }
        var all: [String] { items.value }
    }

    final class RecordingHandler: ProvisioWalletExtensionHandler, @unchecked Sendable {
        // @unchecked: adds only the `errors` recorder, which is itself thread-safe.
        let errors = Recorder()
        override func errorEncountered(_ error: ProvisioError) { errors.add(error.code.rawValue) }
    }

    /// The shared keychain, in memory (the keychain itself exists only on Apple platforms).
    final class MemorySessionStore: ExtensionSessionStore, Sendable {
        private let stored = Locked<StoredExtensionSession?>(nil)
        func load() throws -> StoredExtensionSession? { stored.value }
        func save(_ session: StoredExtensionSession) throws { stored.withLock { $0 = session } }
        func remove() throws { stored.withLock { $0 = nil } }
    }

    /// A shared keychain without the entitlement.
    struct BrokenStore: ExtensionSessionStore {
        func load() throws -> StoredExtensionSession? { nil }
        func save(_ session: StoredExtensionSession) throws {
            throw ProvisioError(.keychainGroupUnavailable, "no entitlement")
        }
        func remove() throws {}
    }

    /// The Wallet extensions end to end: the app writes its App Group, the UI extension signs the
    /// cardholder in, and Wallet (played by the test with the sandbox wallet and Apple's service)
    /// asks the non-UI extension for its status and entries and adds a card through it, against a
    /// real Provisio on loopback.
    @Suite struct WalletExtensionHandlerTests {
        /// A PNG header of Apple's card-art size (the stand-in reads width and height only).
        static func png(width: Int = 1536, height: Int = 969) -> Data {
            var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
            bytes += Array("IHDR".utf8)
            for value in [width, height] { bytes += withUnsafeBytes(of: UInt32(value).bigEndian, Array.init) }
            bytes += [8, 6, 0, 0, 0, 0, 0, 0, 0]
            return Data(bytes)
        }

        static func library(_ wallet: SandboxWallet) -> @Sendable () async -> PassLibrarySnapshot {
            {
                let passes = await wallet.passes().map { pass in
                    WalletPassSnapshot(
                        serialNumber: pass.serialNumber, primaryAccountIdentifier: pass.primaryAccountIdentifier,
                        primaryAccountNumberSuffix: pass.primaryAccountNumberSuffix,
                        deviceAccountIdentifier: pass.deviceAccountIdentifier,
                        activationState: PassActivationState(rawValue: pass.activationState.rawValue),
                        device: pass.deviceKind == .phone ? .phone : .watch)
                }
                return PassLibrarySnapshot(passes: passes, isWatchPaired: wallet.hasPairedWatch, canAddPaymentPasses: true)
            }
        }

        /// Wallet's part of an add from the extension: a device session, the handler's answer,
        /// then Apple's service with it.
        static func walletAdds(
            _ identifier: String, on kind: SandboxDeviceKind, handler: ProvisioWalletExtensionHandler, live: LiveProvisio,
            primaryAccountIdentifier: String, apple: SandboxAppleProvisioningService? = nil,
            beforeApple: @Sendable () async throws -> Void = {}
        ) async throws -> ProvisioningSubmission? {
            let session = try await live.wallet.beginAdd(
                on: kind, scheme: .eccV2, primaryAccountIdentifier: primaryAccountIdentifier)
            let configuration = try #require(PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2))
            // What PassKit hands Apple, copied out of the (non-Sendable) request object.
            let answer: ApplePayloadResponse? = await withCheckedContinuation { continuation in
                handler.generateAddPaymentPassRequestForPassEntryWithIdentifier(
                    identifier, configuration: configuration, certificateChain: session.certificates, nonce: session.nonce,
                    nonceSignature: session.nonceSignature
                ) { request in
                    guard let request, let data = request.encryptedPassData, let activation = request.activationData else {
                        continuation.resume(returning: nil)
                        return
                    }
                    continuation.resume(
                        returning: ApplePayloadResponse(
                            encryptedPassData: data.base64EncodedString(), activationData: activation.base64EncodedString(),
                            ephemeralPublicKey: request.ephemeralPublicKey?.base64EncodedString(),
                            wrappedKey: request.wrappedKey?.base64EncodedString()))
                }
            }
            guard let answer else { return nil }
            try await beforeApple()
            return try await (apple ?? live.apple).submit(
                sessionID: session.id, response: answer, scheme: .eccV2)
        }

        /// A fresh App Group container, the in-memory keychain, and the handler over both.
        static func extensionParts(_ live: LiveProvisio, serverURL: URL? = nil) throws -> (
            URL, AppGroupStorage, MemorySessionStore, RecordingHandler
        ) {
            let container = URL(fileURLWithPath: NSTemporaryDirectory() + "appgroup-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
            let storage = try AppGroupStorage(container: container)
            let sessions = MemorySessionStore()
            let handler = RecordingHandler(
                environment: WalletExtensionEnvironment(
                    storage: storage, sessions: sessions, library: library(live.wallet),
                    payloadProvider: WalletExtensionEnvironment.provisio(baseURL: serverURL ?? live.baseURL),
                    // These tests are about the answers, not the 80 ms guard (a loaded test machine
                    // may be slower); WalletExtensionStatusDeadlineTests covers the guard.
                    statusDeadline: 5))
            return (container, storage, sessions, handler)
        }

        @Test func statusEntriesAndGenerateRunTheWholeFlow() async throws {
            try await LiveProvisio.run { live in
                let (container, storage, sessions, handler) = try Self.extensionParts(live)
                defer { try? FileManager.default.removeItem(at: container) }

                // Before the app wrote anything: nothing to offer, sign-in asked for.
                let empty = await handler.currentStatus()
                #expect(empty.requiresAuthentication && !empty.passEntriesAvailable && !empty.remotePassEntriesAvailable)

                // The app writes its cards and their art into the App Group.
                let client = ProvisioMobileClient(baseURL: live.baseURL, credential: .mobileSession(live.mobileSession))
                let card = try #require(try await client.cards().first { $0.id == live.cardID })
                let extensionCard = WalletCard(
                    id: card.id, primaryAccountIdentifier: card.primaryAccountIdentifier, title: "Kit Visa", last4: card.last4,
                    cardholderName: card.cardholderName, network: card.network, artReference: "kit-visa.png")
                let account = ExtensionAccount(issuerID: "kit-bank", consumerID: "cust_kit", cards: [extensionCard])
                try storage.save(ExtensionConfiguration(accounts: [account], savedAt: Date()))
                try storage.saveArt(Self.png(), named: "kit-visa.png")

                let signedOut = await handler.currentStatus()
                #expect(
                    signedOut.requiresAuthentication && signedOut.passEntriesAvailable && signedOut.remotePassEntriesAvailable)

                // The UI extension signs the cardholder in: stored, then `.authorized`, once.
                let results = Recorder()
                let authorization = ExtensionAuthorization(sessions: sessions) { results.add("\($0)") }
                try authorization.authorize(
                    credential: live.mobileSession, accountIDs: [account.id], expiresAt: Date().addingTimeInterval(600))
                authorization.cancel()
                #expect(results.all == ["authorized"])
                #expect(try sessions.load()?.accounts.map(\.credential) == [live.mobileSession])
                #expect(!"\(try #require(try sessions.load()))".contains(live.mobileSession))

                let signedIn = await handler.currentStatus()
                #expect(!signedIn.requiresAuthentication && signedIn.passEntriesAvailable)

                let phoneEntries = await handler.entries(for: .phone)
                let entry = try #require(phoneEntries.first as? PKIssuerProvisioningExtensionPaymentPassEntry)
                #expect(phoneEntries.count == 1 && entry.identifier == "phone:\(card.id)" && entry.title == "Kit Visa")
                #expect(entry.art.width == 1536 && entry.art.height == 969)
                #expect(entry.addRequestConfiguration.primaryAccountIdentifier == card.primaryAccountIdentifier)
                #expect(entry.addRequestConfiguration.primaryAccountSuffix == "1111")

                // Wallet adds it to the iPhone through the extension.
                let submission = try await Self.walletAdds(
                    entry.identifier, on: .phone, handler: handler, live: live,
                    primaryAccountIdentifier: card.primaryAccountIdentifier
                ) {
                    // Answered, pass not there yet: the card is hidden from the iPhone entries.
                    let pending = try storage.ledger().records.count
                    #expect(pending == 1)
                    #expect(await handler.entries(for: .phone).isEmpty)
                    #expect(await handler.entries(for: .watch).count == 1)
                }
                #expect(submission?.primaryAccountNumber.last4 == "1111", "\(handler.errors.all)")
                let pass = try #require(
                    await live.wallet.pass(primaryAccountIdentifier: card.primaryAccountIdentifier, on: .phone))
                #expect(pass.activationState == .activated)
                #expect(try await live.issuerTokens().first?.state == .active)

                // Now on the iPhone: offered for the Watch only; the pending add was reconciled away.
                #expect(await handler.entries(for: .phone).isEmpty)
                #expect(await handler.entries(for: .watch).map(\.identifier) == ["watch:\(card.id)"])
                let after = await handler.currentStatus()
                #expect(!after.passEntriesAvailable && after.remotePassEntriesAvailable)
                #expect(try storage.ledger().records.isEmpty)
                #expect(handler.errors.all.isEmpty, "\(handler.errors.all)")
            }
        }

        @Test func anExpiredSessionAsksToSignInAndRefusesToGenerate() async throws {
            try await LiveProvisio.run { live in
                let (container, storage, sessions, handler) = try Self.extensionParts(live)
                defer { try? FileManager.default.removeItem(at: container) }
                let card = WalletCard(
                    id: live.cardID, primaryAccountIdentifier: "pai-unknown", title: "Visa", last4: "1111",
                    artReference: "missing.png")
                let account = ExtensionAccount(issuerID: "kit-bank", consumerID: "cust_kit", cards: [card])
                try storage.save(ExtensionConfiguration(accounts: [account], savedAt: Date()))
                try sessions.save(
                    StoredExtensionSession(
                        session: ExtensionSession(accountID: account.id, expiresAt: Date().addingTimeInterval(-1)),
                        credential: live.mobileSession))

                let status = await handler.currentStatus()
                #expect(
                    status.requiresAuthentication && status.passEntriesAvailable, "an expired session keeps the app in Wallet")
                // Signed out: no entries (Wallet asks for them only after signing in).
                #expect(await handler.entries(for: .phone).isEmpty)
                #expect(handler.errors.all.isEmpty)

                let submission = try await Self.walletAdds(
                    "phone:\(live.cardID)", on: .phone, handler: handler, live: live, primaryAccountIdentifier: "pai-unknown")
                #expect(submission == nil)
                #expect(handler.errors.all.contains("extension_authentication_required"))
                #expect(await live.wallet.passes().isEmpty)

                // Signed in, but the art is missing: the entry is left out, and the reason reported.
                try sessions.signIn(
                    StoredExtensionAccount(
                        accountIDs: [account.id], credential: live.mobileSession, expiresAt: Date().addingTimeInterval(600)))
                #expect(await handler.entries(for: .phone).isEmpty)
                #expect(handler.errors.all.contains("card_art_not_png"))

                // A UI extension that cannot store the session says `.canceled`, never `.authorized`.
                let results = Recorder()
                let authorization = ExtensionAuthorization(sessions: BrokenStore()) { results.add("\($0)") }
                #expect(throws: ProvisioError.self) {
                    try authorization.authorize(
                        credential: live.mobileSession, accountIDs: [account.id], expiresAt: Date().addingTimeInterval(600))
                }
                #expect(results.all == ["canceled"])
            }
        }

        @Test func aMissingAppGroupOrInfoPlistIsAClearError() async throws {
            let missing = URL(fileURLWithPath: "/nonexistent/appgroup-\(UUID().uuidString)")
            #expect(throws: ProvisioError.self) { try AppGroupStorage(container: missing) }
            do {
                _ = try AppGroupStorage(container: missing)
            } catch let error as ProvisioError {
                #expect(error.code == .appGroupUnavailable)
            }
            let unconfigured = RecordingHandler()
            // Wallet calls the completion-handler form; ProvisioKit answers through the async one.
            let done = Recorder()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                unconfigured.generateAddPaymentPassRequestForPassEntryWithIdentifier(
                    "phone:x", configuration: PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!,
                    certificateChain: [], nonce: Data(), nonceSignature: Data()
                ) { request in
                    done.add(request == nil ? "nil" : "request")
                    continuation.resume()
                }
            }
            #expect(done.all == ["nil"])
            #expect(unconfigured.errors.all == ["extension_not_configured"])
        }
    }
#endif
