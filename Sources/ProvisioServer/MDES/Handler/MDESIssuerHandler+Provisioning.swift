import Foundation
import ProvisioCore
import ProvisioMDESIssuerAPI

/// authorizeService and requestActivationMethods: the decision on a card being added, and the
/// ways its cardholder can authenticate.
extension MDESIssuerHandler {
    func authorizeService(_ input: Operations.AuthorizeService.Input) async throws -> Operations.AuthorizeService.Output {
        guard case .json(let body) = input.body else { throw MDESRefusal(.invalidJson, "The body is not JSON.") }
        let tenantID = input.path.tenantId
        let reference = try Self.reference(body.fundingAccountInfo.tokenUniqueReference)
        let plaintext = try await service.open(Self.payload(body.fundingAccountInfo.encryptedPayload), tenantID: tenantID)
        let device = MDESDecisionMapping.deviceType(formFactor: body.deviceInfo?.formFactor?.text)
        func answer(
            _ decision: Components.Schemas.Decision, methods: [Components.Schemas.ActivationMethod]? = nil,
            decline: Components.Schemas.DeclineReason? = nil
        ) -> Operations.AuthorizeService.Output {
            .ok(
                .init(
                    body: .json(
                        .init(
                            responseId: body.requestId, services: [.digitization], decision: decision,
                            activationMethods: methods, declineReasonCode: decline))))
        }
        guard case .found(let card, let pan) = try await service.card(of: plaintext, tenantID: tenantID) else {
            // Not a card of this issuer: red, and nothing to record a token against.
            return answer(.declined, decline: .invalCard)
        }
        let info = body.walletProviderDecisioningInfo
        let risk = MDESDecisionMapping.risk(
            recommendation: info?.recommendedDecision?.text, deviceScore: info?.deviceScore, accountScore: info?.accountScore,
            phoneNumberScore: info?.phoneNumberScore)
        let (_, decision) = try await service.decide(
            card: card, pan: pan, tokenUniqueReference: reference, wallet: MDESDecisionMapping.wallet(walletID: body.walletId),
            device: device, risk: risk, tenantID: tenantID)
        switch decision.outcome {
        case .approve:
            return answer(.approved)
        case .decline:
            let reason = Components.Schemas.DeclineReason(rawValue: MDESDecisionMapping.declineReason(decision.reasons))
            return answer(.declined, decline: reason ?? .doNotHonor)
        case .requireVerification:
            let methods = try await service.activationMethods(plaintext, card: card, device: device, tenantID: tenantID)
            return answer(.requireAdditionalAuthentication, methods: Self.activationMethods(methods))
        }
    }

    func requestActivationMethods(_ input: Operations.RequestActivationMethods.Input) async throws
        -> Operations.RequestActivationMethods.Output
    {
        guard case .json(let body) = input.body else { throw MDESRefusal(.invalidJson, "The body is not JSON.") }
        let tenantID = input.path.tenantId
        let plaintext = try await service.open(Self.payload(body.fundingAccountInfo.encryptedPayload), tenantID: tenantID)
        var methods: [Components.Schemas.ActivationMethod] = []
        // An unknown card, a wrong expiry or a closed card gets no methods ([PD]), not an error.
        if case .found(let card, _) = try await service.card(of: plaintext, tenantID: tenantID), card.status == .active {
            let device = MDESDecisionMapping.deviceType(formFactor: body.deviceInfo?.formFactor?.text)
            methods = Self.activationMethods(
                try await service.activationMethods(plaintext, card: card, device: device, tenantID: tenantID))
        }
        return .ok(.init(body: .json(.init(responseId: body.requestId, activationMethods: methods))))
    }
}
