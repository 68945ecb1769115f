#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioCore
    import ProvisioKit
    import Testing

    /// A non-UI extension whose every answer comes after a set delay on the test's clock.
    final class DelayedHandler: PKIssuerProvisioningExtensionHandler, @unchecked Sendable {
        // @unchecked: only lets of Sendable values and the thread-safe `answered` recorder.
        let clock: ManualClock
        let statusDelay: Duration
        let entriesDelay: Duration
        let requestDelay: Duration
        /// Each answer the handler gave, when it gave it (whether or not Wallet still listened).
        let answered = Recorder()

        init(clock: ManualClock, status: Duration = .zero, entries: Duration = .zero, request: Duration = .zero) {
            self.clock = clock
            self.statusDelay = status
            self.entriesDelay = entries
            self.requestDelay = request
            super.init()
        }

        private func wait(_ delay: Duration) async {
            try? await clock.sleep(for: delay)
        }

        override func status() async -> PKIssuerProvisioningExtensionStatus {
            await wait(statusDelay)
            answered.add("status")
            let status = PKIssuerProvisioningExtensionStatus()
            status.passEntriesAvailable = true
            return status
        }

        override func passEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
            await wait(entriesDelay)
            answered.add("passEntries")
            return Self.entries("phone")
        }

        override func remotePassEntries() async -> [PKIssuerProvisioningExtensionPassEntry] {
            await wait(entriesDelay)
            answered.add("remotePassEntries")
            return Self.entries("watch")
        }

        override func generateAddPaymentPassRequestForPassEntryWithIdentifier(
            _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration, certificateChain certificates: [Data],
            nonce: Data, nonceSignature: Data
        ) async -> PKAddPaymentPassRequest? {
            await wait(requestDelay)
            answered.add("request")
            let request = PKAddPaymentPassRequest()
            request.encryptedPassData = Data([1])
            request.activationData = Data([2])
            request.ephemeralPublicKey = Data([3])
            return request
        }

        static func entries(_ device: String) -> [PKIssuerProvisioningExtensionPassEntry] {
            guard let art = UIImage(data: WalletExtensionHandlerTests.png())?.cgImage,
                let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)
            else { return [] }
            configuration.primaryAccountIdentifier = "pai-1"
            return [
                PKIssuerProvisioningExtensionPaymentPassEntry(
                    identifier: "\(device):card_1", title: "Kit Visa", art: art, addRequestConfiguration: configuration)
            ].compactMap { $0 }
        }
    }

    /// A device that begins every extension add and records what Wallet hands Apple.
    final class RecordingExtensionDevice: PassKitStandInDevice {
        let finished = Recorder()
        var canAddPaymentPasses: Bool { true }
        var isPassLibraryAvailable: Bool { true }
        var requestTimeout: Duration { .seconds(20) }
        func secureElementPasses(remote: Bool) -> [PassKitStandInPass] { [] }
        func canAddSecureElementPass(primaryAccountIdentifier: String) -> Bool { true }
        func activate(serialNumber: String, activationData: Data) async throws -> PassKitStandInPass {
            throw NSError(domain: PKPassKitErrorDomain, code: 1)
        }
        func beginAdd(_ request: PassKitStandInAddRequest) async throws -> PassKitStandInAddSession? { nil }
        func beginExtensionAdd(_ request: PassKitStandInAddRequest, remote: Bool) async throws -> PassKitStandInAddSession {
            PassKitStandInAddSession(
                id: "session-1", certificates: [Data([0])], nonce: Data([1]), nonceSignature: Data([2]), isRemote: remote)
        }
        func finishAdd(_ session: PassKitStandInAddSession, response: PassKitStandInAddResponse) async throws
            -> PassKitStandInPass
        {
            finished.add(session.id)
            return PassKitStandInPass(
                serialNumber: "serial-1", primaryAccountIdentifier: "pai-1", primaryAccountNumberSuffix: "1111",
                deviceAccountIdentifier: "dai-1", activationState: .activated, isRemote: session.isRemote,
                deviceName: session.isRemote ? "Apple Watch" : "iPhone")
        }
    }

    /// The sandbox's Wallet holds the non-UI extension to Apple's limits (`status` 100 ms,
    /// entries and the request 20 s), on an injected clock: the tests move time, nothing sleeps.
    @Suite struct SandboxWalletLimitsTests {
        static let limits = PassKitStandInWalletLimits.apple

        @Test func theLimitsAreApples() {
            #expect(Self.limits.status == .milliseconds(100))
            #expect(Self.limits.entries == .seconds(20))
            #expect(Self.limits.request == .seconds(20))
        }

        @Test(arguments: [Duration.milliseconds(99), .milliseconds(101)])
        func aStatusAfter100msHidesTheExtension(delay: Duration) async {
            let clock = ManualClock()
            let handler = DelayedHandler(clock: clock, status: delay)
            let wallet = PassKitStandInWallet(device: RecordingExtensionDevice(), clock: clock)
            async let visibility = wallet.visibility(of: handler)
            await clock.waitForSleepers(2)
            clock.advance(by: min(delay, Self.limits.status))
            let seen = await visibility
            if delay < Self.limits.status {
                #expect(
                    seen == .shown(requiresAuthentication: false, passEntriesAvailable: true, remotePassEntriesAvailable: false))
            } else {
                #expect(seen == .notShown)
                // The late answer still comes, and is ignored.
                clock.advance(by: delay)
                await Self.until { handler.answered.all == ["status"] }
            }
        }

        /// ProvisioKit's guard answers before Wallet's 100 ms even when storage hangs; the same
        /// handler with its guard set past 100 ms (a regression) is not shown.
        @Test(arguments: [0.080, 0.150])
        func theSDKsStatusGuardKeepsTheExtensionShownWhileStorageHangs(statusDeadline: TimeInterval) async {
            let clock = ManualClock()
            let storage = HangingStorage(
                configuration: ExtensionConfiguration(accounts: [WalletExtensionStatusDeadlineTests.account], savedAt: Date()))
            defer { storage.release() }
            storage.hang(true)
            let handler = RecordingHandler(
                environment: WalletExtensionEnvironment(
                    storage: storage, sessions: MemorySessionStore(),
                    library: { PassLibrarySnapshot(passes: [], isWatchPaired: true, canAddPaymentPasses: true) },
                    payloadProvider: WalletExtensionEnvironment.provisio(baseURL: URL(string: "http://127.0.0.1:9")!),
                    statusDeadline: statusDeadline,
                    statusTimer: { seconds, fire in
                        Task {
                            guard (try? await clock.sleep(for: .seconds(seconds))) != nil else { return }
                            fire()
                        }
                    }))
            let wallet = PassKitStandInWallet(device: RecordingExtensionDevice(), clock: clock)
            async let visibility = wallet.visibility(of: handler)
            await clock.waitForSleepers(2)
            let guardDeadline = Duration.seconds(statusDeadline)
            clock.advance(by: min(guardDeadline, Self.limits.status))
            let seen = await visibility
            if guardDeadline < Self.limits.status {
                // Sign in, nothing offered yet: shown, and asked again later.
                #expect(
                    seen == .shown(requiresAuthentication: true, passEntriesAvailable: false, remotePassEntriesAvailable: false))
            } else {
                #expect(seen == .notShown)
                clock.advance(by: guardDeadline)
            }
            await Self.until { handler.errors.all == ["extension_status_deadline_exceeded"] }
        }

        @Test(arguments: [false, true])
        func entriesAfter20sFailTheAdd(remote: Bool) async {
            let clock = ManualClock()
            let slow = DelayedHandler(clock: clock, entries: .seconds(20) + .milliseconds(1))
            let wallet = PassKitStandInWallet(device: RecordingExtensionDevice(), clock: clock)
            async let late = Self.catching { try await wallet.entries(of: slow, remote: remote) }
            await clock.waitForSleepers(2)
            clock.advance(by: Self.limits.entries)
            #expect(Self.code(await late) == PassKitStandInWalletFailure.entriesTooLate)
            clock.advance(by: .milliseconds(1))
            await Self.until { slow.answered.all.count == 1 }

            // Just in time: Wallet lists the entry, for its device.
            let onTimeClock = ManualClock()
            let onTime = DelayedHandler(clock: onTimeClock, entries: .seconds(20) - .milliseconds(1))
            let onTimeWallet = PassKitStandInWallet(device: RecordingExtensionDevice(), clock: onTimeClock)
            async let entries = Self.catching { try await onTimeWallet.entries(of: onTime, remote: remote) }
            await onTimeClock.waitForSleepers(2)
            onTimeClock.advance(by: .seconds(20) - .milliseconds(1))
            let listed = (try? await entries.get()) ?? []
            #expect(listed.map(\.identifier) == [remote ? "watch:card_1" : "phone:card_1"])
            #expect(listed.map(\.isRemote) == [remote])
            #expect(listed.first?.request?.encryptionScheme == "ECC_V2")
        }

        @Test func aRequestAfter20sFailsTheAddAndItsLateAnswerIsIgnored() async throws {
            let clock = ManualClock()
            let device = RecordingExtensionDevice()
            let wallet = PassKitStandInWallet(device: device, clock: clock)
            let entry = try #require(try await wallet.entries(of: DelayedHandler(clock: clock), remote: false).first)

            let slow = DelayedHandler(clock: clock, request: .seconds(20) + .milliseconds(1))
            async let late = Self.catching { try await wallet.add(entry, through: slow) }
            await clock.waitForSleepers(2)
            clock.advance(by: Self.limits.request)
            #expect(Self.code(await late) == PassKitStandInWalletFailure.requestTooLate)
            clock.advance(by: .milliseconds(1))
            await Self.until { slow.answered.all == ["request"] }
            #expect(device.finished.all.isEmpty, "a late answer never reaches Apple")

            let onTime = DelayedHandler(clock: clock, request: .seconds(20) - .milliseconds(1))
            async let added = Self.catching { try await wallet.add(entry, through: onTime) }
            await clock.waitForSleepers(2)
            clock.advance(by: .seconds(20) - .milliseconds(1))
            #expect(try await added.get().serialNumber == "serial-1")
            #expect(device.finished.all == ["session-1"])
        }

        static func catching<T: Sendable>(_ body: @Sendable () async throws -> T) async -> Result<T, any Error> {
            do {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }

        /// The Wallet failure's code, nil for a success or another error.
        static func code<T>(_ result: Result<T, any Error>) -> String? {
            guard case .failure(let error) = result else { return nil }
            return (error as? PassKitStandInWalletFailure)?.code
        }

        /// Waits (polling) for something another task does after the answer that matters.
        static func until(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
            for _ in 0..<5_000 where !condition() {
                try? await Task.sleep(for: .milliseconds(2))
            }
            #expect(condition(), sourceLocation: sourceLocation)
        }
    }
#endif
