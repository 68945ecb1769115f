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
    /// How long `generateAddPaymentPassRequest…` may take before Wallet is answered with a failure.
    public var deadline: Duration

    public init(
        storage: any ExtensionStorage, sessions: any ExtensionSessionStore,
        library: @escaping @Sendable () async -> PassLibrarySnapshot = WalletExtensionEnvironment.passKitLibrary,
        payloadProvider: @escaping @Sendable (StoredExtensionAccount) -> any ProvisioPayloadProvider,
        now: @escaping @Sendable () -> Date = { Date() }, deadline: Duration = .seconds(15)
    ) {
        self.storage = storage
        self.sessions = sessions
        self.library = library
        self.payloadProvider = payloadProvider
        self.now = now
        self.deadline = min(deadline, InAppProvisioning.maximumDeadline)
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
