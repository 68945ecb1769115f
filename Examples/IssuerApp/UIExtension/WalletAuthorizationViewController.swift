import Foundation
import ProvisioCore
import ProvisioKit

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif
#if canImport(UIKit)
    import UIKit
#endif

/// How one sign-in attempt in the Wallet UI extension ended, for the screen to show.
enum WalletSignInOutcome: Hashable, Sendable {
    /// Wallet was told `.authorized` and closes the sheet; the session is in the shared keychain.
    case authorized
    /// Nothing was reported to Wallet yet: show `message` and let the cardholder try again.
    case tryAgain(message: String)
    /// Wallet was told `.canceled` (the extension is misconfigured, or the session could not be
    /// stored); show `message` until Wallet closes the sheet.
    case ended(message: String)
}

/// The Wallet authorization (UI) extension, minus its screen: the part that talks to Wallet,
/// the issuer's backend and ProvisioKit. It compiles on Linux against `PassKitStandIn`; the iOS
/// target's principal class, `AuthorizationViewController`, subclasses it and adds the UIKit form.
///
/// Wallet sets ``completionHandler`` and presents the controller when the non-UI extension's
/// `status` says `requiresAuthentication`. After the backend accepts the cardholder,
/// ``ExtensionAuthorization`` stores the mobile session in the shared keychain (for the non-UI
/// extension's `generate…` call) and only then tells Wallet `.authorized`; Wallet's handler is
/// called exactly once whatever the screen does (sign-in, cancel, a second tap).
@MainActor
class WalletAuthorizationViewController: UIViewController,
    @preconcurrency PKIssuerProvisioningExtensionAuthorizationProviding
{
    /// Set by Wallet before it presents the controller.
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

    /// What a configuration problem was (`extension_not_configured`, `keychain_group_unavailable`),
    /// or nil when the target is set up.
    var setupError: ProvisioError? { setup.error }

    private lazy var setup: Setup = makeSetup()

    private lazy var authorization = ExtensionAuthorization(sessions: setup.sessions) { [weak self] result in
        // ExtensionAuthorization calls this once; Wallet's handler is called on the main actor.
        Task { @MainActor in self?.completionHandler?(result) }
    }

    /// Whether Wallet has been answered (the screen then only waits to be dismissed).
    var isCompleted: Bool { authorization.isCompleted }

    // MARK: - Overridable

    /// The settings from this target's Info.plist (`ProvisioExtension`).
    func makeSettings() throws -> IssuerAppSettings {
        try IssuerAppSettings.main()
    }

    /// Where the session goes: the shared keychain (`KeychainSessionStore`) on a device.
    func makeSessionStore(settings: IssuerAppSettings) throws -> any ExtensionSessionStore {
        try settings.makeSessionStore()
    }

    // MARK: - Sign-in

    /// Signs the cardholder in through the issuer's backend and, on success, authorizes Wallet.
    func signIn(username: String, password: String) async -> WalletSignInOutcome {
        guard !authorization.isCompleted else { return .ended(message: Self.closedMessage) }
        if let setupError {
            ExampleLog.error(setupError)
            authorization.cancel()
            return .ended(message: Self.unavailableMessage)
        }
        let username = username.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !username.isEmpty, !password.isEmpty else {
            return .tryAgain(message: "Enter your username and password.")
        }
        do {
            let session = try await setup.backend.signIn(username: username, password: password)
            // The account must be the one the app wrote into the App Group configuration
            // (ExtensionAccount.ID), or the non-UI extension keeps asking for authentication.
            try authorization.authorize(
                credential: session.token, accountIDs: [session.account], expiresAt: session.expiresAt)
            return .authorized
        } catch IssuerBackendError.invalidCredentials {
            return .tryAgain(message: "The username or password is incorrect.")
        } catch {
            ExampleLog.error("Wallet sign-in failed: \(error)")
            // `authorize` completes Wallet with `.canceled` when the session cannot be stored
            // (typically `keychain_group_unavailable`); anything else may be retried.
            if authorization.isCompleted { return .ended(message: Self.unavailableMessage) }
            return .tryAgain(message: "We couldn't sign you in. Check your connection and try again.")
        }
    }

    /// The cardholder closed the sheet: Wallet is told `.canceled` (once).
    func cancel() {
        authorization.cancel()
    }

    // MARK: - Setup

    static let unavailableMessage = "Adding cards from Apple Wallet isn't available right now. Please use our app instead."
    static let closedMessage = "You can close this screen."

    private struct Setup {
        var backend: any IssuerBackend
        var sessions: any ExtensionSessionStore
        var error: ProvisioError?
    }

    private func makeSetup() -> Setup {
        do {
            let settings = try makeSettings()
            return Setup(backend: settings.makeBackend(), sessions: try makeSessionStore(settings: settings), error: nil)
        } catch {
            let error =
                error as? ProvisioError ?? ProvisioError(.extensionNotConfigured, "The UI extension is not set up (\(error)).")
            return Setup(backend: PlaceholderIssuerBackend(), sessions: UnavailableSessionStore(error: error), error: error)
        }
    }
}

/// Stands in for the keychain when the target is misconfigured: every use fails with the setup
/// error, so `ExtensionAuthorization` still answers Wallet exactly once (`.canceled`).
private struct UnavailableSessionStore: ExtensionSessionStore {
    let error: ProvisioError

    func load() throws -> StoredExtensionSession? { throw error }
    func save(_ session: StoredExtensionSession) throws { throw error }
    func remove() throws { throw error }
}
