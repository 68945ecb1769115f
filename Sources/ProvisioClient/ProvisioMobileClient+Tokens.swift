import Foundation
import ProvisioMobileAPI

/// The cardholder's own wallet tokens (a mobile session only; a provision token is
/// `wrong_credential_kind`): every wallet and device the customer's cards are on, the changes the
/// cardholder may make from the app (a lost phone suspended), and a pending token activated
/// after the app authenticated them. Another customer's token is `token_not_found`, as an
/// unknown one is.
extension ProvisioMobileClient {
    /// `GET /v1/mobile/tokens`: the customer's live tokens (pending verification, active,
    /// suspended), every wallet and device, oldest first.
    public func walletTokens(timeout: TimeInterval? = nil) async throws -> [WalletToken] {
        let client = self.client
        return try await perform(timeout: timeout ?? self.timeout) {
            try await client.listMobileTokens().ok.body.json.data.map(WalletToken.init)
        }
    }

    /// `POST /v1/mobile/tokens/{id}/transitions`: suspends, resumes or deletes one of the
    /// cardholder's tokens, at the card network first; answers the token after the change.
    ///
    /// Refusals keep the server's code: `token_invalid_transition` (e.g. resuming an active
    /// token), `card_locked` (no resume while the issuer locked the card), `network_refused`,
    /// `network_unavailable`.
    /// - Parameter idempotencyKey: sent as `Idempotency-Key`; a retry with the same key replays
    ///   the first answer instead of changing the token twice.
    public func changeToken(
        id: String, _ action: WalletTokenAction, idempotencyKey: String? = nil, timeout: TimeInterval? = nil
    ) async throws -> WalletToken {
        let id = try Self.checkedID(id, of: "token")
        let client = self.client
        return try await perform(timeout: timeout ?? self.timeout) {
            WalletToken(
                try await client.transitionMobileToken(
                    path: .init(id: id), headers: .init(idempotencyKey: idempotencyKey), body: .json(.init(action: action.wire))
                ).ok.body.json)
        }
    }

    /// Suspends one of the cardholder's tokens (a lost device): `changeToken(id:.suspend)`.
    public func suspendToken(id: String, timeout: TimeInterval? = nil) async throws -> WalletToken {
        try await changeToken(id: id, .suspend, timeout: timeout)
    }

    /// Resumes a suspended token (the device found again): `changeToken(id:.resume)`.
    public func resumeToken(id: String, timeout: TimeInterval? = nil) async throws -> WalletToken {
        try await changeToken(id: id, .resume, timeout: timeout)
    }

    /// Deletes a token for good (a device sold); it is no longer listed: `changeToken(id:.delete)`.
    public func deleteToken(id: String, timeout: TimeInterval? = nil) async throws -> WalletToken {
        try await changeToken(id: id, .delete, timeout: timeout)
    }

    /// `POST /v1/mobile/tokens/{id}/activation {"method": "app_authentication"}`: activates a
    /// token pending verification, once the app has authenticated the cardholder itself and they
    /// confirmed the card by its last four digits. Provisio records it as `app_authentication`,
    /// neither TAV nor customer service.
    ///
    /// Call it only after both; ProvisioKit's
    /// `InAppVerification.activateAfterAppAuthentication(_:client:confirm:)` asks for the
    /// confirmation first. A token not pending is `token_invalid_transition`.
    public func activateTokenAfterAppAuthentication(
        id: String, idempotencyKey: String? = nil, timeout: TimeInterval? = nil
    ) async throws -> WalletToken {
        let id = try Self.checkedID(id, of: "token")
        let client = self.client
        return try await perform(timeout: timeout ?? self.timeout) {
            WalletToken(
                try await client.activateMobileToken(
                    path: .init(id: id), headers: .init(idempotencyKey: idempotencyKey),
                    body: .json(.init(method: .appAuthentication))
                ).ok.body.json)
        }
    }
}
