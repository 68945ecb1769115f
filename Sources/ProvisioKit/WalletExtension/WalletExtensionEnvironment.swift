import Foundation
import ProvisioClient
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// What the Wallet extension works with: the App Group storage, the shared session store, the
/// pass library, and how to reach Provisio (or the issuer's backend) with the stored session.
public struct WalletExtensionEnvironment: Sendable {
    public var storage: any ExtensionStorage
    public var sessions: any ExtensionSessionStore
    /// The passes on the iPhone and the Watch, now.
    public var library: @Sendable () async -> PassLibrarySnapshot
    /// The payload provider for the signed-in account that owns the card being added.
    public var payloadProvider: @Sendable (StoredExtensionAccount) -> any ProvisioPayloadProvider
    public var now: @Sendable () -> Date
    /// How long `generateAddPaymentPassRequest…` may take before Wallet is answered with a failure,
    /// in seconds (times here are `TimeInterval`s; `Duration` would need iOS 16).
    public var deadline: TimeInterval
    /// How long `status` waits for storage (the App Group files, the keychain, the pass library)
    /// before answering from the last status it computed, or asking to sign in with nothing
    /// available, in seconds. Keep it under Apple's 100 ms (``defaultStatusDeadline`` leaves
    /// Wallet 20 ms).
    public var statusDeadline: TimeInterval
    /// Calls its closure once the given time has passed: the timer of `statusDeadline`. The
    /// default, ``dispatchTimer``, runs off Swift's cooperative pool, so that the fallback answer
    /// is delivered even while every pool thread is blocked.
    public var statusTimer: @Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void

    public init(
        storage: any ExtensionStorage, sessions: any ExtensionSessionStore,
        library: @escaping @Sendable () async -> PassLibrarySnapshot = WalletExtensionEnvironment.passKitLibrary,
        payloadProvider: @escaping @Sendable (StoredExtensionAccount) -> any ProvisioPayloadProvider,
        now: @escaping @Sendable () -> Date = { Date() }, deadline: TimeInterval = 15,
        statusDeadline: TimeInterval = WalletExtensionEnvironment.defaultStatusDeadline,
        statusTimer: @escaping @Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void = WalletExtensionEnvironment
            .dispatchTimer
    ) {
        self.storage = storage
        self.sessions = sessions
        self.library = library
        self.payloadProvider = payloadProvider
        self.now = now
        self.deadline = min(deadline, InAppProvisioning.maximumDeadline)
        self.statusDeadline = statusDeadline
        self.statusTimer = statusTimer
    }

    /// 80 ms: room for Wallet's own overhead inside its 100 ms.
    public static let defaultStatusDeadline: TimeInterval = 0.080

    /// A one-shot timer on a private dispatch queue (its own thread, not the cooperative pool).
    public static let dispatchTimer: @Sendable (TimeInterval, @escaping @Sendable () -> Void) -> Void = { seconds, fire in
        let nanoseconds = Int(clamping: Seconds.nanoseconds(seconds))
        TimerQueue.queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: fire)
    }
    /// Provisio's mobile API, called with the card's account's credential: at the account's own
    /// `serverURL` when it has one, else at `baseURL` (the extension's `ServerURL`).
    public static func provisio(baseURL: URL) -> @Sendable (StoredExtensionAccount) -> any ProvisioPayloadProvider {
        { account in
            ProvisioClientPayloadProvider(
                client: ProvisioMobileClient(
                    baseURL: account.serverURL ?? baseURL, credential: .mobileSession(account.credential)))
        }
    }

    /// `PKPassLibrary`, read on the main actor. Wallet only asks an extension for Watch entries
    /// when a Watch is paired, so the extension takes one as paired.
    public static let passKitLibrary: @Sendable () async -> PassLibrarySnapshot = {
        await MainActor.run { WalletLibrary(isWatchPaired: { true }).snapshot() }
    }
}

/// The queue of `WalletExtensionEnvironment.dispatchTimer`.
private enum TimerQueue {
    static let queue = DispatchQueue(label: "provisio.wallet-extension.status-timer")
}
