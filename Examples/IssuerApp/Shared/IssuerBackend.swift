import Foundation
import ProvisioCore

/// The issuer's own backend, as the example app and its UI extension see it.
///
/// **This is the placeholder you implement.** Provisio never talks to the cardholder's login: your
/// backend does, and it calls Provisio's issuer API with its API key (`prv_sk_…`, which never
/// ships in an app) on the app's behalf:
///
/// | method | your backend calls |
/// |---|---|
/// | ``currentMobileSession()`` / ``signIn(username:password:)`` / ``signIn(deviceCredential:)`` | `POST /v1/mobile-sessions {"customer_ref", "ttl_seconds"}` |
/// | ``activationData(for:)`` | `GET /v1/tokens?card_id=…` to find the token, then `POST /v1/tokens/{id}/activation {"mode": "tav"}` |
///
/// The example's files use nothing else, so the app, its two Wallet extensions and this protocol
/// are all an issuer needs to wire up.
protocol IssuerBackend: Sendable {
    /// A Provisio mobile session for the cardholder already signed in to the app (the app's own
    /// login). Used for `GET /v1/mobile/cards` and the in-app add.
    func currentMobileSession() async throws -> IssuerMobileSession

    /// Signs the cardholder in from the Wallet UI extension (which cannot see the app's login) and
    /// returns a mobile session for the non-UI extension. Throw ``IssuerBackendError/invalidCredentials``
    /// for a wrong username or password, so the sheet can ask again instead of cancelling.
    func signIn(username: String, password: String) async throws -> IssuerMobileSession

    /// Signs the cardholder in from the Wallet UI extension with the device credential a previous
    /// password sign-in returned (``IssuerMobileSession/deviceCredential``), which Face ID / Touch ID
    /// just unlocked from the keychain. Throw when it is revoked or unknown: the sheet then asks
    /// for the password.
    func signIn(deviceCredential: String) async throws -> IssuerMobileSession

    /// Provisio's activation data (base64 TAV) for the token behind `pass`, for in-app verification.
    /// `pass.deviceAccountIdentifier` and `pass.primaryAccountIdentifier` let the backend find the token.
    func activationData(for pass: WalletPassSnapshot) async throws -> String
}

/// A mobile session minted by the issuer's backend (`POST /v1/mobile-sessions`).
struct IssuerMobileSession: Sendable, Hashable, CustomStringConvertible {
    /// The bearer token for Provisio's `/v1/mobile/` routes.
    var token: String
    /// When Provisio stops accepting it (`expires_at`).
    var expiresAt: Date
    /// The issuer / consumer pair the session belongs to: the account the Wallet extensions offer
    /// cards for, and the one the stored extension session authorizes.
    var account: ExtensionAccount.ID
    /// A device-bound credential for the next sign-in with Face ID / Touch ID instead of the
    /// password (your backend's refresh token for this device), or nil when it offers none.
    var deviceCredential: String? = nil

    /// Never prints the token or the device credential.
    var description: String { "IssuerMobileSession(account: \(account), expiresAt: \(expiresAt), token: redacted)" }
}

/// What a backend reports that the example handles specially.
enum IssuerBackendError: Error, Hashable, Sendable {
    /// Wrong username or password: the UI extension lets the cardholder try again.
    case invalidCredentials
    /// The cardholder is not signed in to the app.
    case signedOut
    /// ``PlaceholderIssuerBackend`` is still in place.
    case notImplemented(String)
}

/// The backend the example ships with: every call fails and says what to replace. Swap it for
/// yours in ``IssuerAppSettings/makeBackend()`` — the one place the three targets create a backend.
struct PlaceholderIssuerBackend: IssuerBackend {
    func currentMobileSession() async throws -> IssuerMobileSession {
        throw IssuerBackendError.notImplemented(
            "currentMobileSession(): have your backend call POST /v1/mobile-sessions for the signed-in customer.")
    }

    func signIn(username: String, password: String) async throws -> IssuerMobileSession {
        throw IssuerBackendError.notImplemented(
            "signIn(username:password:): check the credentials with your backend, then POST /v1/mobile-sessions.")
    }

    func signIn(deviceCredential: String) async throws -> IssuerMobileSession {
        throw IssuerBackendError.notImplemented(
            "signIn(deviceCredential:): check the device credential your backend issued, then POST /v1/mobile-sessions.")
    }

    func activationData(for pass: WalletPassSnapshot) async throws -> String {
        throw IssuerBackendError.notImplemented(
            "activationData(for:): have your backend call POST /v1/tokens/{id}/activation {\"mode\": \"tav\"}.")
    }
}
