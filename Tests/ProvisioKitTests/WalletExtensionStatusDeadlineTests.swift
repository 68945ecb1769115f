#if os(Linux)
    import Foundation
    import PassKitStandIn
    import ProvisioCore
    import ProvisioKit
    import Testing

    /// App Group storage that blocks every read for 30 s while `hang` is set (a stalled file
    /// system or a busy keychain), until the test releases it.
    final class HangingStorage: ExtensionStorage, Sendable {
        private struct State {
            var hang = false
            var configuration: ExtensionConfiguration?
        }
        private let state = Locked(State())
        private let gate = DispatchSemaphore(value: 0)
        let blockFor: TimeInterval

        init(configuration: ExtensionConfiguration?, blockFor: TimeInterval = 30) {
            self.blockFor = blockFor
            state.withLock { $0.configuration = configuration }
        }

        func hang(_ hang: Bool) { state.withLock { $0.hang = hang } }

        /// Lets every blocked read finish (each waits at most `blockFor` anyway).
        func release() {
            for _ in 0..<16 { gate.signal() }
        }

        private func block() {
            if state.value.hang { _ = gate.wait(timeout: .now() + blockFor) }
        }

        func configuration() throws -> ExtensionConfiguration? {
            block()
            return state.value.configuration
        }
        func save(_ configuration: ExtensionConfiguration) throws { state.withLock { $0.configuration = configuration } }
        func ledger() throws -> PendingAddLedger {
            block()
            return PendingAddLedger()
        }
        func save(_ ledger: PendingAddLedger) throws {}
        func art(named reference: String) throws -> Data? { nil }
        func saveArt(_ data: Data, named reference: String) throws {}
    }

    /// `status` answers within its deadline however slow storage is (Apple allows 100 ms).
    @Suite(.serialized) struct WalletExtensionStatusDeadlineTests {
        static let account = ExtensionAccount(
            issuerID: "kit-bank", consumerID: "cust_kit",
            cards: [
                WalletCard(
                    id: "card_1", primaryAccountIdentifier: "pai-1", title: "Visa", last4: "1111", artReference: "a.png")
            ])
        static let deadline: TimeInterval = 0.080
        /// What a loaded test machine may add to the deadline before the answer is delivered;
        /// far below the storage's block (seconds).
        static let scheduling: Duration = .milliseconds(170)

        static func handler(
            _ storage: HangingStorage, sessions: MemorySessionStore,
            timer: @escaping @Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void = WalletExtensionEnvironment
                .dispatchTimer
        ) -> RecordingHandler {
            RecordingHandler(
                environment: WalletExtensionEnvironment(
                    storage: storage, sessions: sessions,
                    library: { PassLibrarySnapshot(passes: [], isWatchPaired: true, canAddPaymentPasses: true) },
                    payloadProvider: WalletExtensionEnvironment.provisio(baseURL: URL(string: "http://127.0.0.1:9")!),
                    statusDeadline: deadline, statusTimer: timer))
        }

        /// The status and how long after the call it was delivered, timed where Wallet would get
        /// it (in the completion, on the answering thread) rather than when this test task
        /// resumes: other suites in the same process may block the cooperative pool for seconds.
        static func timedStatus(_ handler: RecordingHandler) async -> (ExtensionStatus, Duration) {
            let clock = ContinuousClock()
            let start = clock.now
            return await withCheckedContinuation { continuation in
                handler.currentStatus { status in continuation.resume(returning: (status, clock.now - start)) }
            }
        }

        @Test func hangingStorageWithNothingKnownAnswersTheSafeDefaultInTime() async throws {
            let storage = HangingStorage(configuration: ExtensionConfiguration(accounts: [Self.account], savedAt: Date()))
            defer { storage.release() }
            storage.hang(true)
            let handler = Self.handler(storage, sessions: MemorySessionStore())

            let (status, elapsed) = await Self.timedStatus(handler)
            #expect(elapsed < .seconds(Self.deadline) + Self.scheduling, "answered after \(elapsed)")
            #expect(status == ProvisioWalletExtensionHandler.fallbackStatus)
            // The PassKit form answers the same.
            let passKit = await handler.currentStatus()
            #expect(passKit.requiresAuthentication && !passKit.passEntriesAvailable && !passKit.remotePassEntriesAvailable)
            #expect(handler.errors.all == ["extension_status_deadline_exceeded", "extension_status_deadline_exceeded"])
        }

        @Test func hangingStorageAnswersTheLastKnownStatusInTime() async throws {
            let storage = HangingStorage(configuration: ExtensionConfiguration(accounts: [Self.account], savedAt: Date()))
            defer { storage.release() }
            let sessions = MemorySessionStore()
            try sessions.signIn(
                StoredExtensionAccount(
                    accountIDs: [Self.account.id], credential: "mob_x", expiresAt: Date().addingTimeInterval(600)))
            let handler = Self.handler(storage, sessions: sessions)
            let signedIn = ExtensionStatus(
                requiresAuthentication: false, passEntriesAvailable: true, remotePassEntriesAvailable: true)

            // Storage answers: the full status, remembered. (Retried while a busy test process
            // makes even the fast read miss the deadline; the late read fills the cache anyway.)
            var known = await handler.guardedStatusForTests()
            for _ in 0..<100 where known != signedIn {
                try await Task.sleep(for: .milliseconds(20))
                known = await handler.guardedStatusForTests()
            }
            #expect(known == signedIn)
            let reported = handler.errors.all.count

            // Storage hangs for 30 s: the last known status, within the deadline.
            storage.hang(true)
            let (status, elapsed) = await Self.timedStatus(handler)
            #expect(elapsed < .seconds(Self.deadline) + Self.scheduling, "answered after \(elapsed)")
            #expect(status == signedIn)
            #expect(Array(handler.errors.all.dropFirst(reported)) == ["extension_status_deadline_exceeded"])

            // Storage answers again: computed afresh (signed out now).
            storage.release()
            storage.hang(false)
            try sessions.signOutAll()
            var fresh = await handler.guardedStatusForTests()
            for _ in 0..<100 where !fresh.requiresAuthentication {
                try await Task.sleep(for: .milliseconds(20))
                fresh = await handler.guardedStatusForTests()
            }
            #expect(fresh.requiresAuthentication && fresh.passEntriesAvailable)
        }

        @Test func theDeadlineIsTheInjectedTimers() async throws {
            // A timer that fires at once: even an hour's deadline has passed, which shows the
            // deadline is the injected timer's and not a hidden wall-clock one.
            let storage = HangingStorage(configuration: nil)
            defer { storage.release() }
            storage.hang(true)
            let handler = Self.handler(storage, sessions: MemorySessionStore(), timer: { _, fire in fire() })
            let (status, elapsed) = await Self.timedStatus(handler)
            #expect(elapsed < .seconds(1))
            #expect(status == ProvisioWalletExtensionHandler.fallbackStatus)
            #expect(handler.errors.all == ["extension_status_deadline_exceeded"])
        }
    }

    extension ProvisioWalletExtensionHandler {
        /// The status as `currentStatus(completion:)` delivers it, awaited.
        func guardedStatusForTests() async -> ExtensionStatus {
            await withCheckedContinuation { continuation in currentStatus { continuation.resume(returning: $0) } }
        }
    }
#endif
