import Foundation
import ProvisioCore

#if canImport(LocalAuthentication)
    import LocalAuthentication
#else
    import PassKitStandIn
#endif

/// Where the credential that biometrics unlock is kept: a sign-in secret of the issuer's backend
/// (typically a device-bound refresh token it issued at an earlier password sign-in), never the
/// cardholder's password. On a device, `KeychainBiometricCredentialStore` keeps it in the
/// keychain behind the current biometry.
public protocol BiometricCredentialStore: Sendable {
    /// Whether a credential is stored, without unlocking it (no prompt).
    func hasCredential() throws -> Bool
    /// The credential, read with `context` once the cardholder passed biometrics with it (so the
    /// keychain does not prompt again); nil when none is stored.
    func credential(unlockedBy context: LAContext) throws -> String?
    func save(_ credential: String) throws
    func remove() throws
}

/// The Wallet UI extension's sign-in, manual and biometric, as Apple requires it to offer both:
/// Face ID / Touch ID unlocks a credential stored at an earlier sign-in, which the issuer's
/// backend exchanges for a Provisio mobile session; when biometrics are unavailable, fail, or the
/// cardholder prefers, the password goes through the issuer's backend as before. Either way the
/// account is stored through ``ExtensionAuthorization`` (other signed-in accounts stay) and only
/// then is Wallet told `.authorized`.
///
/// A failed or cancelled biometric attempt never answers Wallet: the screen shows the password
/// form (``Outcome/usePassword(_:)`` says why), and Wallet hears `.canceled` only from the
/// cardholder closing the sheet (``ExtensionAuthorization/cancel()``).
public final class BiometricSignIn: Sendable {
    /// Why the password is needed.
    public enum Fallback: Sendable, Hashable {
        /// No credential is stored yet (first sign-in on this device, or it was removed).
        case noStoredCredential
        /// The device cannot evaluate biometrics now: none enrolled, no passcode, no hardware, or
        /// the cardholder denied the app Face ID (`canEvaluatePolicy` was false).
        case biometricsUnavailable
        /// Biometrics did not recognise the cardholder (or are locked out after too many tries).
        case biometricsFailed
        /// The cardholder or the system dismissed the prompt.
        case canceled
        /// The cardholder tapped the prompt's fallback button ("Enter Password").
        case passwordChosen
        /// Biometrics passed, but the backend did not accept the unlocked credential (revoked,
        /// expired, or unreachable).
        case exchangeFailed
    }

    /// How a sign-in attempt ended.
    public enum Outcome: Sendable, Hashable {
        /// The account is stored and Wallet was told `.authorized`.
        case signedIn
        /// Nothing was told to Wallet: show the password form.
        case usePassword(Fallback)
        /// Wallet has already been answered (an earlier attempt, a cancel, or a session that
        /// could not be stored, which tells Wallet `.canceled`).
        case ended
    }

    /// What the issuer's backend returns for a sign-in.
    public struct Grant: Sendable, Hashable, CustomStringConvertible {
        /// The account for the Wallet extension (mobile session, accounts, expiry, server).
        public var account: StoredExtensionAccount
        /// A credential the next sign-in may unlock with biometrics instead of the password
        /// (stored behind biometry, replacing the previous one); nil keeps what is stored.
        public var biometricCredential: String?

        public init(account: StoredExtensionAccount, biometricCredential: String? = nil) {
            self.account = account
            self.biometricCredential = biometricCredential
        }

        public var description: String {
            "BiometricSignIn.Grant(\(account), biometricCredential: \(biometricCredential == nil ? "none" : "redacted"))"
        }
    }

    /// The policy evaluated: biometrics only, so that "Enter Password" comes back to the app's
    /// own password form (`.userFallback`) rather than the device passcode.
    public static let policy = LAPolicy.deviceOwnerAuthenticationWithBiometrics

    private let authorization: ExtensionAuthorization
    private let credentials: any BiometricCredentialStore
    private let localizedReason: String
    private let makeContext: @Sendable () -> LAContext
    private let errorEncountered: @Sendable (ProvisioError) -> Void

    /// - Parameters:
    ///   - localizedReason: the prompt's reason, in the cardholder's language (Touch ID shows it).
    ///   - makeContext: a fresh context per attempt (Apple: contexts are not reused after evaluation).
    ///   - errorEncountered: problems that do not end the sign-in (a credential that cannot be
    ///     stored or read), for the log.
    public init(
        authorization: ExtensionAuthorization, credentials: any BiometricCredentialStore, localizedReason: String,
        makeContext: @escaping @Sendable () -> LAContext = { LAContext() },
        errorEncountered: @escaping @Sendable (ProvisioError) -> Void = { _ in }
    ) {
        self.authorization = authorization
        self.credentials = credentials
        self.localizedReason = localizedReason
        self.makeContext = makeContext
        self.errorEncountered = errorEncountered
    }

    /// The biometry to offer (for the button: "Sign in with Face ID"), or nil when only the
    /// password can sign in: no stored credential, or biometrics cannot be evaluated now.
    public func availableBiometry() -> LABiometryType? {
        guard storedCredentialExists() else { return nil }
        let context = makeContext()
        var error: NSError?
        guard context.canEvaluatePolicy(Self.policy, error: &error) else { return nil }
        return context.biometryType
    }

    /// Biometrics, then the unlocked credential through `exchange` (the issuer's backend); on
    /// success the account is stored and Wallet told `.authorized`.
    public func signInWithBiometrics(exchange: @Sendable (String) async throws -> Grant) async -> Outcome {
        guard !authorization.isCompleted else { return .ended }
        guard storedCredentialExists() else { return .usePassword(.noStoredCredential) }
        let context = makeContext()
        var unavailable: NSError?
        guard context.canEvaluatePolicy(Self.policy, error: &unavailable) else { return .usePassword(.biometricsUnavailable) }
        do {
            _ = try await context.evaluatePolicy(Self.policy, localizedReason: localizedReason)
        } catch {
            return .usePassword(Self.fallback(for: error))
        }
        let credential: String
        do {
            guard let stored = try credentials.credential(unlockedBy: context) else {
                return .usePassword(.noStoredCredential)
            }
            credential = stored
        } catch {
            errorEncountered(Self.provisioError(error, "The biometric credential could not be read"))
            return .usePassword(.noStoredCredential)
        }
        let grant: Grant
        do {
            grant = try await exchange(credential)
        } catch {
            errorEncountered(Self.provisioError(error, "The issuer's backend did not accept the biometric credential"))
            return .usePassword(.exchangeFailed)
        }
        return complete(with: grant)
    }

    /// The password path: `signIn` checks the password with the issuer's backend (throw for a
    /// wrong one: it is rethrown and Wallet is not answered, so the cardholder can try again);
    /// on success the account is stored, Wallet told `.authorized`, and the grant's biometric
    /// credential kept for next time.
    public func signInWithPassword(_ signIn: @Sendable () async throws -> Grant) async throws -> Outcome {
        guard !authorization.isCompleted else { return .ended }
        let grant = try await signIn()
        return complete(with: grant)
    }

    private func complete(with grant: Grant) -> Outcome {
        if let biometric = grant.biometricCredential {
            do {
                try credentials.save(biometric)
            } catch {
                // The sign-in stands; the next one asks for the password again.
                errorEncountered(Self.provisioError(error, "The biometric credential could not be stored"))
            }
        }
        guard !authorization.isCompleted else { return .ended }
        do {
            try authorization.authorize(grant.account)
            return .signedIn
        } catch {
            // `authorize` told Wallet `.canceled` (typically `keychain_group_unavailable`).
            errorEncountered(Self.provisioError(error, "The Wallet session could not be stored"))
            return .ended
        }
    }

    private func storedCredentialExists() -> Bool {
        do {
            return try credentials.hasCredential()
        } catch {
            errorEncountered(Self.provisioError(error, "The biometric credential store could not be read"))
            return false
        }
    }

    /// Why an evaluation failed, from LocalAuthentication's error (`LAErrorDomain` codes).
    static func fallback(for error: any Error) -> Fallback {
        let error = error as NSError
        guard error.domain == LAErrorDomain, let code = LAError.Code(rawValue: error.code) else { return .biometricsFailed }
        switch code {
        case .userCancel, .systemCancel, .appCancel: return .canceled
        case .userFallback: return .passwordChosen
        default: return .biometricsFailed
        }
    }

    static func provisioError(_ error: any Error, _ what: String) -> ProvisioError {
        if let error = error as? ProvisioError { return error }
        return ProvisioError(.extensionAuthenticationRequired, "\(what) (\(type(of: error))).")
    }
}
