import Foundation
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// The UI extension's part (`PKIssuerProvisioningExtensionAuthorizationProviding`): once the
/// cardholder signed in, the account is added to the session in the shared keychain for the
/// non-UI extension (other accounts already signed in stay), then Wallet is told `.authorized`; a cancel, or a session that cannot be stored, is
/// `.canceled`. Wallet's completion handler is called exactly once whatever the caller does.
public final class ExtensionAuthorization: Sendable {
    private let sessions: any ExtensionSessionStore
    private let once: CompletionOnce<PKIssuerProvisioningExtensionAuthorizationResult>

    /// - Parameter completion: forwards to the view controller's `completionHandler`.
    public init(
        sessions: any ExtensionSessionStore,
        completion: @escaping @Sendable (PKIssuerProvisioningExtensionAuthorizationResult) -> Void
    ) {
        self.sessions = sessions
        self.once = CompletionOnce(completion)
    }

    public var isCompleted: Bool { once.isCompleted }

    /// Stores the signed-in account and completes with `.authorized`: it is added to the accounts
    /// already signed in, replacing any earlier sign-in to the same issuer / consumer pairs. A
    /// store failure completes with `.canceled` and is rethrown (typically
    /// `keychain_group_unavailable`).
    ///
    /// - Parameter serverURL: Provisio's base URL for these accounts, when it is not the
    ///   extension's `ServerURL` (an app whose issuers use different Provisio deployments).
    public func authorize(
        credential: String, accountIDs: Set<ExtensionAccount.ID>, expiresAt: Date, serverURL: URL? = nil
    ) throws {
        try authorize(
            StoredExtensionAccount(accountIDs: accountIDs, credential: credential, expiresAt: expiresAt, serverURL: serverURL))
    }

    /// Stores `account` (see ``authorize(credential:accountIDs:expiresAt:serverURL:)``).
    public func authorize(_ account: StoredExtensionAccount) throws {
        guard !once.isCompleted else { return }
        guard !account.credential.isEmpty, !account.accountIDs.isEmpty else {
            once.complete(.canceled)
            throw ProvisioError(.extensionAuthenticationRequired, "A session needs a credential and at least one account.")
        }
        do {
            try sessions.signIn(account)
        } catch {
            once.complete(.canceled)
            throw error
        }
        once.complete(.authorized)
    }

    public func cancel() {
        once.complete(.canceled)
    }
}
