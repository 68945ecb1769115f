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
#if canImport(LocalAuthentication)
    import LocalAuthentication
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
/// `status` says `requiresAuthentication`. The cardholder signs in with Face ID / Touch ID
/// (``signInWithBiometrics()``: biometrics unlock the device credential an earlier password
/// sign-in stored, which the backend exchanges for a session) or with the password
/// (``signIn(username:password:)``, through the backend), as Apple requires both to be offered;
/// ``BiometricSignIn`` falls back to the password whenever biometrics are unavailable or fail.
/// After the backend accepts the cardholder, ``ExtensionAuthorization`` adds the account's mobile
/// session to the shared keychain (for the non-UI extension's `generate…` call; other signed-in
/// accounts stay) and only then tells Wallet `.authorized`; Wallet's handler is called exactly
/// once whatever the screen does (sign-in, cancel, a second tap).
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

    private lazy var biometricSignIn = BiometricSignIn(
        authorization: authorization, credentials: setup.biometricCredentials, localizedReason: Self.biometricReason,
        errorEncountered: { ExampleLog.error($0) })

    /// Whether Wallet has been answered (the screen then only waits to be dismissed).
    var isCompleted: Bool { authorization.isCompleted }

    /// The biometry to offer ("Sign in with Face ID"), or nil when only the password can sign in
    /// (no device credential stored yet, biometrics unavailable, or the target misconfigured).
    var availableBiometry: LABiometryType? {
        setupError == nil ? biometricSignIn.availableBiometry() : nil
    }

    // MARK: - Overridable

    /// The settings from this target's Info.plist (`ProvisioExtension`).
    func makeSettings() throws -> IssuerAppSettings {
        try IssuerAppSettings.main()
    }

    /// Where the session goes: the shared keychain (`KeychainSessionStore`) on a device.
    func makeSessionStore(settings: IssuerAppSettings) throws -> any ExtensionSessionStore {
        try settings.makeSessionStore()
    }

    /// Where the device credential biometrics unlock is kept: the keychain, behind biometry.
    func makeBiometricCredentialStore(settings: IssuerAppSettings) throws -> any BiometricCredentialStore {
        try settings.makeBiometricCredentialStore()
    }

    // MARK: - Sign-in

    /// Signs the cardholder in with Face ID / Touch ID: the device credential it unlocks goes to
    /// the issuer's backend for a session, and Wallet is authorized. Any failure (no credential
    /// yet, biometrics unavailable, not recognised, cancelled, refused by the backend) leaves
    /// Wallet waiting and says to use the password.
    func signInWithBiometrics() async -> WalletSignInOutcome {
        guard !authorization.isCompleted else { return .ended(message: Self.closedMessage) }
        if let setupError {
            ExampleLog.error(setupError)
            authorization.cancel()
            return .ended(message: Self.unavailableMessage)
        }
        let backend = setup.backend
        let outcome = await biometricSignIn.signInWithBiometrics { credential in
            try await backend.signIn(deviceCredential: credential).grant
        }
        switch outcome {
        case .signedIn: return .authorized
        case .usePassword(let reason): return .tryAgain(message: Self.passwordMessage(after: reason))
        case .ended: return .ended(message: authorization.isCompleted ? Self.unavailableMessage : Self.closedMessage)
        }
    }

    /// Signs the cardholder in through the issuer's backend and, on success, authorizes Wallet
    /// (and keeps the backend's device credential for Face ID / Touch ID next time).
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
        let backend = setup.backend
        do {
            // The account must be the one the app wrote into the App Group configuration
            // (ExtensionAccount.ID), or the non-UI extension keeps asking for authentication.
            let outcome = try await biometricSignIn.signInWithPassword {
                try await backend.signIn(username: username, password: password).grant
            }
            // `.ended`: the session could not be stored (typically `keychain_group_unavailable`)
            // and Wallet was told `.canceled`.
            return outcome == .signedIn ? .authorized : .ended(message: Self.unavailableMessage)
        } catch IssuerBackendError.invalidCredentials {
            return .tryAgain(message: "The username or password is incorrect.")
        } catch {
            ExampleLog.error("Wallet sign-in failed: \(error)")
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
    static let biometricReason = "Sign in to add your cards to Apple Wallet."

    /// What the password form says after biometrics did not sign the cardholder in.
    static func passwordMessage(after reason: BiometricSignIn.Fallback) -> String {
        switch reason {
        case .noStoredCredential, .biometricsUnavailable, .canceled, .passwordChosen:
            "Enter your username and password."
        case .biometricsFailed:
            "We couldn't recognise you. Enter your username and password."
        case .exchangeFailed:
            "Please sign in with your username and password again."
        }
    }

    private struct Setup {
        var backend: any IssuerBackend
        var sessions: any ExtensionSessionStore
        var biometricCredentials: any BiometricCredentialStore
        var error: ProvisioError?
    }

    private func makeSetup() -> Setup {
        do {
            let settings = try makeSettings()
            return Setup(
                backend: settings.makeBackend(), sessions: try makeSessionStore(settings: settings),
                biometricCredentials: try makeBiometricCredentialStore(settings: settings), error: nil)
        } catch {
            let error =
                error as? ProvisioError ?? ProvisioError(.extensionNotConfigured, "The UI extension is not set up (\(error)).")
            return Setup(
                backend: PlaceholderIssuerBackend(), sessions: UnavailableSessionStore(error: error),
                biometricCredentials: UnavailableBiometricStore(error: error), error: error)
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

/// No biometric credential when the target is misconfigured: biometrics are never offered.
private struct UnavailableBiometricStore: BiometricCredentialStore {
    let error: ProvisioError

    func hasCredential() throws -> Bool { false }
    func credential(unlockedBy context: LAContext) throws -> String? { nil }
    func save(_ credential: String) throws { throw error }
    func remove() throws {}
}

extension IssuerMobileSession {
    /// The session as ``BiometricSignIn`` stores it for the Wallet extension, with the device
    /// credential for the next biometric sign-in.
    var grant: BiometricSignIn.Grant {
        BiometricSignIn.Grant(
            account: StoredExtensionAccount(accountIDs: [account], credential: token, expiresAt: expiresAt),
            biometricCredential: deviceCredential)
    }
}
