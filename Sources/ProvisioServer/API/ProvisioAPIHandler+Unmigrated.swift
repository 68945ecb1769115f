import ProvisioAPI
import ProvisioCore

/// The operations still served by the hand-written routes (Sources/ProvisioServer/Routes) while
/// they move to generated handlers, area by area: `AudienceTransport` does not register these,
/// and their methods here are never called. Both go when the last area has moved.
extension ProvisioAPIHandler {
    static let unmigrated: Set<String> = [
        "GET /v1/cards",  // listCards
        "POST /v1/cards",  // createCard
        "GET /v1/cards/{id}",  // getCard
        "POST /v1/cards/{id}/close",  // closeCard
        "GET /v1/cards/{id}/provisioning-attempts",  // listProvisioningAttempts
        "POST /v1/cards/{id}/provisioning/apple-pay",  // provisionApplePay
        "POST /v1/cards/{id}/provisioning/google-pay",  // provisionGooglePay
        "POST /v1/cards/{id}/provisioning/samsung-pay",  // provisionSamsungPay
        "POST /v1/mobile-sessions",  // createMobileSession
        "POST /v1/provision-tokens",  // createProvisionToken
        "GET /v1/mobile/cards",  // listMobileCards
        "POST /v1/mobile/cards/{id}/provisioning/apple-pay",  // provisionApplePayFromMobile
        "POST /v1/mobile/cards/{id}/provisioning/google-pay",  // provisionGooglePayFromMobile
        "POST /v1/mobile/cards/{id}/provisioning/samsung-pay",  // provisionSamsungPayFromMobile
        "GET /v1/webhook-endpoints",  // listWebhookEndpoints
        "POST /v1/webhook-endpoints",  // createWebhookEndpoint
        "POST /v1/webhook-endpoints/{id}/test",  // sendTestWebhook
        "GET /v1/webhook-deliveries",  // listWebhookDeliveries
        "GET /v1/webhook-deliveries/{id}",  // getWebhookDelivery
        "POST /v1/webhook-deliveries/{id}/replay",  // replayWebhookDelivery
        "GET /v1/tokens",  // listTokens
        "GET /v1/tokens/{id}",  // getToken
        "POST /v1/tokens/{id}/transitions",  // transitionToken
        "POST /v1/tokens/{id}/activation",  // activateToken
        "POST /v1/network/token-requests",  // requestTokenDecision
        "POST /v1/network/tokens/{ref}/events",  // reportTokenEvent
        "POST /v1/network/tokens/{ref}/otp",  // relayOneTimeCode
    ]

    private static func unmigratedOperation() -> ProvisioError {
        ProvisioError(.internalError, "The server could not complete the request.")
    }

    func listCards(_ input: Operations.ListCards.Input) async throws -> Operations.ListCards.Output {
        throw Self.unmigratedOperation()
    }

    func createCard(_ input: Operations.CreateCard.Input) async throws -> Operations.CreateCard.Output {
        throw Self.unmigratedOperation()
    }

    func getCard(_ input: Operations.GetCard.Input) async throws -> Operations.GetCard.Output { throw Self.unmigratedOperation() }

    func closeCard(_ input: Operations.CloseCard.Input) async throws -> Operations.CloseCard.Output {
        throw Self.unmigratedOperation()
    }

    func listProvisioningAttempts(_ input: Operations.ListProvisioningAttempts.Input) async throws
        -> Operations.ListProvisioningAttempts.Output
    { throw Self.unmigratedOperation() }

    func provisionApplePay(_ input: Operations.ProvisionApplePay.Input) async throws -> Operations.ProvisionApplePay.Output {
        throw Self.unmigratedOperation()
    }

    func provisionGooglePay(_ input: Operations.ProvisionGooglePay.Input) async throws -> Operations.ProvisionGooglePay.Output {
        throw Self.unmigratedOperation()
    }

    func provisionSamsungPay(_ input: Operations.ProvisionSamsungPay.Input) async throws -> Operations.ProvisionSamsungPay.Output
    { throw Self.unmigratedOperation() }

    func createMobileSession(_ input: Operations.CreateMobileSession.Input) async throws -> Operations.CreateMobileSession.Output
    { throw Self.unmigratedOperation() }

    func createProvisionToken(_ input: Operations.CreateProvisionToken.Input) async throws
        -> Operations.CreateProvisionToken.Output
    { throw Self.unmigratedOperation() }

    func listMobileCards(_ input: Operations.ListMobileCards.Input) async throws -> Operations.ListMobileCards.Output {
        throw Self.unmigratedOperation()
    }

    func provisionApplePayFromMobile(_ input: Operations.ProvisionApplePayFromMobile.Input) async throws
        -> Operations.ProvisionApplePayFromMobile.Output
    { throw Self.unmigratedOperation() }

    func provisionGooglePayFromMobile(_ input: Operations.ProvisionGooglePayFromMobile.Input) async throws
        -> Operations.ProvisionGooglePayFromMobile.Output
    { throw Self.unmigratedOperation() }

    func provisionSamsungPayFromMobile(_ input: Operations.ProvisionSamsungPayFromMobile.Input) async throws
        -> Operations.ProvisionSamsungPayFromMobile.Output
    { throw Self.unmigratedOperation() }

    func listWebhookEndpoints(_ input: Operations.ListWebhookEndpoints.Input) async throws
        -> Operations.ListWebhookEndpoints.Output
    { throw Self.unmigratedOperation() }

    func createWebhookEndpoint(_ input: Operations.CreateWebhookEndpoint.Input) async throws
        -> Operations.CreateWebhookEndpoint.Output
    { throw Self.unmigratedOperation() }

    func sendTestWebhook(_ input: Operations.SendTestWebhook.Input) async throws -> Operations.SendTestWebhook.Output {
        throw Self.unmigratedOperation()
    }

    func listWebhookDeliveries(_ input: Operations.ListWebhookDeliveries.Input) async throws
        -> Operations.ListWebhookDeliveries.Output
    { throw Self.unmigratedOperation() }

    func getWebhookDelivery(_ input: Operations.GetWebhookDelivery.Input) async throws -> Operations.GetWebhookDelivery.Output {
        throw Self.unmigratedOperation()
    }

    func replayWebhookDelivery(_ input: Operations.ReplayWebhookDelivery.Input) async throws
        -> Operations.ReplayWebhookDelivery.Output
    { throw Self.unmigratedOperation() }

    func listTokens(_ input: Operations.ListTokens.Input) async throws -> Operations.ListTokens.Output {
        throw Self.unmigratedOperation()
    }

    func getToken(_ input: Operations.GetToken.Input) async throws -> Operations.GetToken.Output {
        throw Self.unmigratedOperation()
    }

    func transitionToken(_ input: Operations.TransitionToken.Input) async throws -> Operations.TransitionToken.Output {
        throw Self.unmigratedOperation()
    }

    func activateToken(_ input: Operations.ActivateToken.Input) async throws -> Operations.ActivateToken.Output {
        throw Self.unmigratedOperation()
    }

    func requestTokenDecision(_ input: Operations.RequestTokenDecision.Input) async throws
        -> Operations.RequestTokenDecision.Output
    { throw Self.unmigratedOperation() }

    func reportTokenEvent(_ input: Operations.ReportTokenEvent.Input) async throws -> Operations.ReportTokenEvent.Output {
        throw Self.unmigratedOperation()
    }

    func relayOneTimeCode(_ input: Operations.RelayOneTimeCode.Input) async throws -> Operations.RelayOneTimeCode.Output {
        throw Self.unmigratedOperation()
    }
}
