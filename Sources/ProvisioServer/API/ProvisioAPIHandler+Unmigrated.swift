import ProvisioAPI
import ProvisioCore

/// The operations still served by the hand-written routes (Sources/ProvisioServer/Routes) while
/// they move to generated handlers, area by area: `AudienceTransport` does not register these,
/// and their methods here are never called. Both go when the last area has moved.
extension ProvisioAPIHandler {
    static let unmigrated: Set<String> = [
        "POST /v1/cards/{id}/provisioning/apple-pay",  // provisionApplePay
        "POST /v1/cards/{id}/provisioning/google-pay",  // provisionGooglePay
        "POST /v1/cards/{id}/provisioning/samsung-pay",  // provisionSamsungPay
        "POST /v1/mobile/cards/{id}/provisioning/apple-pay",  // provisionApplePayFromMobile
        "POST /v1/mobile/cards/{id}/provisioning/google-pay",  // provisionGooglePayFromMobile
        "POST /v1/mobile/cards/{id}/provisioning/samsung-pay",  // provisionSamsungPayFromMobile
    ]

    private static func unmigratedOperation() -> ProvisioError {
        ProvisioError(.internalError, "The server could not complete the request.")
    }

    func provisionApplePay(_ input: Operations.ProvisionApplePay.Input) async throws -> Operations.ProvisionApplePay.Output {
        throw Self.unmigratedOperation()
    }

    func provisionGooglePay(_ input: Operations.ProvisionGooglePay.Input) async throws -> Operations.ProvisionGooglePay.Output {
        throw Self.unmigratedOperation()
    }

    func provisionSamsungPay(_ input: Operations.ProvisionSamsungPay.Input) async throws -> Operations.ProvisionSamsungPay.Output
    { throw Self.unmigratedOperation() }

    func provisionApplePayFromMobile(_ input: Operations.ProvisionApplePayFromMobile.Input) async throws
        -> Operations.ProvisionApplePayFromMobile.Output
    { throw Self.unmigratedOperation() }

    func provisionGooglePayFromMobile(_ input: Operations.ProvisionGooglePayFromMobile.Input) async throws
        -> Operations.ProvisionGooglePayFromMobile.Output
    { throw Self.unmigratedOperation() }

    func provisionSamsungPayFromMobile(_ input: Operations.ProvisionSamsungPayFromMobile.Input) async throws
        -> Operations.ProvisionSamsungPayFromMobile.Output
    { throw Self.unmigratedOperation() }
}
