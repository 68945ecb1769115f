import Foundation
import ProvisioMDESIssuerAPI

/// deliverActivationCode and validateActivationCode: the one-time code of the yellow path. The
/// code's bounds (1 to 32 characters, nothing else) were checked with the request
/// (`MDESFieldRules`).
extension MDESIssuerHandler {
    func deliverActivationCode(_ input: Operations.DeliverActivationCode.Input) async throws
        -> Operations.DeliverActivationCode.Output
    {
        guard case .json(let body) = input.body else { throw MDESRefusal(.invalidJson, "The body is not JSON.") }
        let reference = try Self.reference(body.tokenUniqueReference)
        var expiry: Date?
        if let text = body.expirationDateTime?.value1 {
            guard let date = MDESTimestamp.parse(text) else { throw MDESRefusal.format("expirationDateTime") }
            expiry = date
        }
        // The cardholder's choice, as the issuer's webhook names it: the email method is the
        // email channel, any other a code by SMS; MDES's correlation id is the challenge.
        let chosenEmail = body.activationMethod._type.value1 == .emailToCardholderAddress
        let deviceName = body.deviceInfo?.deviceName.flatMap {
            (try? OTPDeviceInfo.validateField($0, field: "")) != nil ? $0 : nil
        }
        let details = OTPRequestDetails(
            challengeID: body.correlationId, channel: chosenEmail ? .email : .sms,
            device: deviceName.map { OTPDeviceInfo(name: $0) })
        try await service.deliverCode(
            body.activationCode, expiresAt: expiry, tokenUniqueReference: reference, tenantID: input.path.tenantId,
            details: (try? details.validate()) != nil ? details : nil)
        return .ok(.init(body: .json(.init(responseId: body.requestId))))
    }

    func validateActivationCode(_ input: Operations.ValidateActivationCode.Input) async throws
        -> Operations.ValidateActivationCode.Output
    {
        guard case .json(let body) = input.body else { throw MDESRefusal(.invalidJson, "The body is not JSON.") }
        let reference = try Self.reference(body.tokenUniqueReference)
        let result = try await service.validateCode(
            body.activationCode, tokenUniqueReference: reference, tenantID: input.path.tenantId)
        let wire = Components.Schemas.ValidateActivationCodeResponse.ResultPayload(rawValue: result.rawValue) ?? .expiredCode
        return .ok(.init(body: .json(.init(responseId: body.requestId, result: wire))))
    }
}
