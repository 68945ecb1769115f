import Foundation
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// The UI extension's part (`PKIssuerProvisioningExtensionAuthorizationProviding`): once the
/// cardholder signed in, the session is stored in the shared keychain for the non-UI extension,
/// then Wallet is told `.authorized`; a cancel, or a session that cannot be stored, is
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

    /// Stores the session and completes with `.authorized`. A store failure completes with
    /// `.canceled` and is rethrown (typically `keychain_group_unavailable`).
    public func authorize(credential: String, accountIDs: Set<ExtensionAccount.ID>, expiresAt: Date) throws {
        guard !once.isCompleted else { return }
        guard !credential.isEmpty, !accountIDs.isEmpty else {
            once.complete(.canceled)
            throw ProvisioError(.extensionAuthenticationRequired, "A session needs a credential and at least one account.")
        }
        do {
            try sessions.save(
                StoredExtensionSession(
                    session: ExtensionSession(accountIDs: accountIDs, expiresAt: expiresAt), credential: credential))
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
