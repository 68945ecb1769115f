import Foundation
import ProvisioMDESIssuerAPI

/// notifyServiceActivated, notifyTokenUpdated and notifySuspiciousEvents: MDES tells the issuer
/// what happened to its tokens.
extension MDESIssuerHandler {
    func notifyServiceActivated(_ input: Operations.NotifyServiceActivated.Input) async throws
        -> Operations.NotifyServiceActivated.Output
    {
        guard case .json(let body) = input.body else { throw MDESRefusal(.invalidJSON, "The body is not JSON.") }
        let tenantID = input.path.tenantId
        let reference = try Self.reference(body.fundingAccountInfo.tokenUniqueReference)
        // The payload (the token's own number) must open and be current, though only its
        // last four digits and expiry would be of use.
        _ = try await service.open(Self.payload(body.fundingAccountInfo.encryptedPayload), tenantID: tenantID)
        let token = try await service.token(reference, tenantID: tenantID)
        try await service.apply(.serviceActivated, to: token)
        return .ok(.init(body: .json(.init(responseId: body.requestId))))
    }

    func notifyTokenUpdated(_ input: Operations.NotifyTokenUpdated.Input) async throws -> Operations.NotifyTokenUpdated.Output {
        guard case .json(let body) = input.body else { throw MDESRefusal(.invalidJSON, "The body is not JSON.") }
        let tenantID = input.path.tenantId
        guard !body.tokens.isEmpty else { throw MDESRefusal.missing("tokens") }
        let reason = MDESTokenChange.word(body.reasonCode.text ?? "")
        // Every token is known before any changes: a refusal changes nothing.
        var found: [(Components.Schemas.UpdatedToken, TokenRecord)] = []
        for updated in body.tokens {
            let reference = try Self.reference(updated.tokenUniqueReference, field: "tokens.tokenUniqueReference")
            found.append((updated, try await service.token(reference, tenantID: tenantID)))
        }
        for (updated, token) in found {
            if reason == "STATUS_UPDATE" {
                let change = MDESTokenChange.statusUpdate(
                    status: updated.status?.value1.text, suspendedBy: updated.suspendedBy?.compactMap(\.text))
                try await service.apply(change, to: token)
            } else {
                // Redigitization, deletion from the consumer app and the rest: recorded only.
                try await service.record("mdes.token_updated", token: token, reason: reason)
            }
        }
        return .ok(.init(body: .json(.init(responseId: body.requestId))))
    }

    func notifySuspiciousEvents(_ input: Operations.NotifySuspiciousEvents.Input) async throws
        -> Operations.NotifySuspiciousEvents.Output
    {
        guard case .json(let body) = input.body else { throw MDESRefusal(.invalidJSON, "The body is not JSON.") }
        let reference = try Self.reference(body.tokenUniqueReference)
        let token = try await service.token(reference, tenantID: input.path.tenantId)
        let events = body.events.compactMap(\.eventName.text).map(MDESTokenChange.word)
        try await service.record(
            "mdes.suspicious_events", token: token, reason: String(events.joined(separator: ",").prefix(128)))
        return .ok(.init(body: .json(.init(responseId: body.requestId))))
    }
}
