import Foundation
import OpenAPIRuntime
import ProvisioAPI

/// What every generated `Operations.*.Output` answers to in a test: the status and, for an
/// error, the refusal. The generated enums share no protocol, and their error cases each wrap
/// one `Components.Responses` type (`ErrorAnswer`), so the case's payload is read by reflection.
protocol APIOutput: Sendable {}

extension APIOutput {
    /// The error answer, or nil for a success (or an undocumented status, see `status`).
    var refusal: Refusal? {
        guard let answer = payload as? any ErrorAnswer, let body = try? answer.errorBody else { return nil }
        return Refusal(status: type(of: answer).status, error: body.error)
    }

    /// The HTTP status: a documented error's, a success case's, or an undocumented one's.
    var status: Int {
        if let answer = payload as? any ErrorAnswer { return type(of: answer).status }
        let label = Mirror(reflecting: self).children.first?.label ?? ""
        if label == "undocumented" {
            return Mirror(reflecting: payload as Any).children.first?.value as? Int ?? 0
        }
        return Self.successStatuses[label] ?? 0
    }

    /// A refusal with exactly this status and code.
    func refused(_ status: Int, _ code: Components.Schemas.ErrorCode) -> Bool {
        refusal?.status == status && refusal?.code == code
    }

    private var payload: Any? { Mirror(reflecting: self).children.first?.value }

    private static var successStatuses: [String: Int] { ["ok": 200, "created": 201, "accepted": 202, "noContent": 204] }
}

extension Operations.GetHealth.Output: APIOutput {}
extension Operations.GetReady.Output: APIOutput {}
extension Operations.GetMetrics.Output: APIOutput {}
extension Operations.GetOpenAPIDocument.Output: APIOutput {}
extension Operations.ListCards.Output: APIOutput {}
extension Operations.CreateCard.Output: APIOutput {}
extension Operations.GetCard.Output: APIOutput {}
extension Operations.CloseCard.Output: APIOutput {}
extension Operations.UpdateCard.Output: APIOutput {}
extension Operations.LockCard.Output: APIOutput {}
extension Operations.UnlockCard.Output: APIOutput {}
extension Operations.ReplaceCard.Output: APIOutput {}
extension Operations.CreateCardProduct.Output: APIOutput {}
extension Operations.ListCardProducts.Output: APIOutput {}
extension Operations.GetCardProduct.Output: APIOutput {}
extension Operations.UpdateCardProduct.Output: APIOutput {}
extension Operations.SetCardProductArt.Output: APIOutput {}
extension Operations.GetCardArt.Output: APIOutput {}
extension Operations.ListProvisioningAttempts.Output: APIOutput {}
extension Operations.ProvisionApplePay.Output: APIOutput {}
extension Operations.ProvisionGooglePay.Output: APIOutput {}
extension Operations.ProvisionSamsungPay.Output: APIOutput {}
extension Operations.CreateMobileSession.Output: APIOutput {}
extension Operations.CreateProvisionToken.Output: APIOutput {}
extension Operations.RevokeMobileSession.Output: APIOutput {}
extension Operations.RevokeCustomerMobileSessions.Output: APIOutput {}
extension Operations.ListAPIKeys.Output: APIOutput {}
extension Operations.CreateAPIKey.Output: APIOutput {}
extension Operations.RevokeAPIKey.Output: APIOutput {}
extension Operations.ListAuditEvents.Output: APIOutput {}
extension Operations.CreateNetworkKey.Output: APIOutput {}
extension Operations.ListMobileCards.Output: APIOutput {}
extension Operations.ProvisionApplePayFromMobile.Output: APIOutput {}
extension Operations.ProvisionGooglePayFromMobile.Output: APIOutput {}
extension Operations.ProvisionSamsungPayFromMobile.Output: APIOutput {}
extension Operations.ListMobileTokens.Output: APIOutput {}
extension Operations.TransitionMobileToken.Output: APIOutput {}
extension Operations.ActivateMobileToken.Output: APIOutput {}
extension Operations.ListWebhookEndpoints.Output: APIOutput {}
extension Operations.CreateWebhookEndpoint.Output: APIOutput {}
extension Operations.SendTestWebhook.Output: APIOutput {}
extension Operations.ListWebhookDeliveries.Output: APIOutput {}
extension Operations.GetWebhookDelivery.Output: APIOutput {}
extension Operations.ReplayWebhookDelivery.Output: APIOutput {}
extension Operations.RotateWebhookSecret.Output: APIOutput {}
extension Operations.ListTokens.Output: APIOutput {}
extension Operations.GetToken.Output: APIOutput {}
extension Operations.TransitionToken.Output: APIOutput {}
extension Operations.ActivateToken.Output: APIOutput {}
extension Operations.GetDecisioningSettings.Output: APIOutput {}
extension Operations.UpdateDecisioningSettings.Output: APIOutput {}
extension Operations.GetActivationMethodSettings.Output: APIOutput {}
extension Operations.SetActivationMethodSettings.Output: APIOutput {}
extension Operations.GetNetworkSettings.Output: APIOutput {}
extension Operations.SetNetworkSettings.Output: APIOutput {}
extension Operations.ClearNetworkSettings.Output: APIOutput {}
extension Operations.RequestTokenDecision.Output: APIOutput {}
extension Operations.ReportTokenEvent.Output: APIOutput {}
extension Operations.RelayOneTimeCode.Output: APIOutput {}
