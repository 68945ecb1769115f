import Foundation
import ProvisioMDESIssuerAPI

/// notifyServiceActivated, notifyTokenUpdated and notifySuspiciousEvents: MDES tells the issuer
/// what happened to its tokens.
extension MDESIssuerHandler {
    func notifyServiceActivated(_ input: Operations.NotifyServiceActivated.Input) async throws
        -> Operations.NotifyServiceActivated.Output
    {
        guard case .json(let body) = input.body else { throw MDESRefusal(.invalidJson, "The body is not JSON.") }
        let tenantID = input.path.tenantId
        let reference = try Self.reference(body.fundingAccountInfo.tokenUniqueReference)
        // The payload holds the token's own number: only its last four digits and expiry are kept.
        let plaintext = try await service.open(Self.payload(body.fundingAccountInfo.encryptedPayload), tenantID: tenantID)
        let token = try await service.token(reference, tenantID: tenantID)
        try await service.serviceActivated(token, details: plaintext.token)
        return .ok(.init(body: .json(.init(responseId: body.requestId))))
    }

    func notifyTokenUpdated(_ input: Operations.NotifyTokenUpdated.Input) async throws -> Operations.NotifyTokenUpdated.Output {
        guard case .json(let body) = input.body else { throw MDESRefusal(.invalidJson, "The body is not JSON.") }
        let tenantID = input.path.tenantId
        guard !body.tokens.isEmpty else { throw MDESRefusal.missing("tokens") }
        let reason = MDESTokenChange.word(body.reasonCode.text ?? "")
        // Every token is known before any changes: a refusal changes nothing.
        var found: [(Components.Schemas.UpdatedToken, TokenRecord)] = []
        for updated in body.tokens {
            let reference = try Self.reference(updated.tokenUniqueReference, field: "tokens.tokenUniqueReference")
            found.append((updated, try await service.token(reference, tenantID: tenantID)))
        }
        // And every new expiry read (a payload opened) before any changes.
        var details: [MDESTokenDetails?] = []
        if reason == "REDIGITIZATION_COMPLETE" || reason == "FUNDING_ACCOUNT_UPDATE" {
            for (updated, _) in found {
                details.append(try await Self.newDetails(of: updated, service: service, tenantID: tenantID))
            }
        }
        for (index, (updated, token)) in found.enumerated() {
            if reason == "STATUS_UPDATE" {
                let change = MDESTokenChange.statusUpdate(
                    status: updated.status?.value1.text, suspendedBy: updated.suspendedBy?.compactMap(\.text))
                try await service.apply(change, to: token)
            } else if let new = details.indices.contains(index) ? details[index] : nil {
                try await service.record(new, of: token, reason: reason, announce: true)
            } else {
                // Deletion from the consumer app and the rest: recorded only.
                try await service.record("mdes.token_updated", token: token, reason: reason)
            }
        }
        return .ok(.init(body: .json(.init(responseId: body.requestId))))
    }

    func notifySuspiciousEvents(_ input: Operations.NotifySuspiciousEvents.Input) async throws
        -> Operations.NotifySuspiciousEvents.Output
    {
        guard case .json(let body) = input.body else { throw MDESRefusal(.invalidJson, "The body is not JSON.") }
        let reference = try Self.reference(body.tokenUniqueReference)
        let token = try await service.token(reference, tenantID: input.path.tenantId)
        let events = body.events.compactMap(\.eventName.text).map(MDESTokenChange.word)
        try await service.suspiciousActivity(
            token, events: events, networkStatus: body.status.text.map(MDESTokenChange.word))
        return .ok(.init(body: .json(.init(responseId: body.requestId))))
    }

    /// A redigitized token's details: from its encrypted `tokenData` when MDES sent one (the token
    /// number may have changed), else from `tokenExpiry`; nil when neither is there.
    static func newDetails(of updated: Components.Schemas.UpdatedToken, service: MDESIssuerService, tenantID: String)
        async throws -> MDESTokenDetails?
    {
        if let payload = updated.fundingAccountInfo?.encryptedPayload,
            let details = try await service.open(Self.payload(payload), tenantID: tenantID).token
        {
            return details
        }
        return try updated.tokenExpiry.map { try MDESTokenDetails(mmyy: $0, field: "tokens.tokenExpiry") }
    }
}
