import Foundation
import ProvisioClient
import ProvisioCore

extension InAppVerification {
    /// In-app authentication (Thales TPC's "activate a pending token"): the app has authenticated
    /// the cardholder its own way; this asks them to confirm the card by its last four digits and
    /// the device, and only when they do, asks Provisio to activate the token through the card
    /// network. A refusal sends nothing.
    ///
    /// It needs no pass or activation data: the network activates the token and the pass on the
    /// device itself. Call it after the app's own authentication, with a mobile session's client.
    ///
    /// - Parameters:
    ///   - token: the pending token, from `ProvisioMobileClient.walletTokens()`.
    ///   - confirm: shows `confirmation.prompt` (or the app's own words) and answers whether the
    ///     cardholder confirmed; not called for a token that is not pending.
    public func activateAfterAppAuthentication(
        _ token: WalletToken, client: ProvisioMobileClient,
        confirm: @MainActor @Sendable (AppActivationConfirmation) async -> Bool
    ) async -> AppActivationResult {
        guard token.state == .pendingVerification else {
            // Refused here, with the server's own code, so a stale list never asks the cardholder
            // to confirm something the server would refuse anyway.
            return .failed(
                ProvisioClientError(
                    .tokenInvalidTransition, "Only a token pending verification is activated in the app.",
                    userMessage: token.state == .active ? "This card is already active on that device." : nil))
        }
        guard await confirm(AppActivationConfirmation(token: token)) else { return .declined }
        do {
            return .activated(try await client.activateTokenAfterAppAuthentication(id: token.id))
        } catch let error as ProvisioClientError {
            return .failed(error)
        } catch {
            return .failed(ProvisioClientError(.clientResponseInvalid, "The activation failed (\(type(of: error)))."))
        }
    }
}
