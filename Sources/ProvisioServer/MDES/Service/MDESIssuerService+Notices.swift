import Foundation
import ProvisioCore

/// What MDES tells the issuer about a token beyond its state: the activation methods to offer,
/// the token's own details (last four, expiry), and suspicious activity. Each is recorded in the
/// audit log and announced as a webhook, as the Provisio dialect's token changes are.
extension MDESIssuerService {
    /// The methods for a yellow decision: the card's own contacts (or else the payload's),
    /// masked in MDES's way, and the issuer's own.
    func activationMethods(_ plaintext: MDESPlaintext, card: CardRecord, device: DeviceType?, tenantID: String) async throws
        -> [MDESActivationMethods.Method]
    {
        MDESActivationMethods.methods(
            device: device, phoneNumber: try tokens.cards.contact(.phone, of: card) ?? plaintext.phoneNumber,
            email: try tokens.cards.contact(.email, of: card) ?? plaintext.email,
            issuer: try await tokens.settings.activationMethods(tenantID: tenantID))
    }

    /// `notifyServiceActivated`: keeps the token's details from `tokenData`, then activates a
    /// pending token; the activation's webhook carries the details. A token already active gets
    /// its new details announced as `token.updated`.
    func serviceActivated(_ token: TokenRecord, details: MDESTokenDetails?) async throws {
        let event = MDESTokenChange.serviceActivated.event(for: token.state)
        var current = token
        if let details {
            current = try await record(details, of: token, reason: "SERVICE_ACTIVATED", announce: event == nil)
        }
        try await apply(.serviceActivated, to: current)
    }

    /// Writes the token's new details with an audit line and, when `announce`, a `token.updated`
    /// webhook; details MDES repeats change nothing.
    @discardableResult
    func record(_ details: MDESTokenDetails, of token: TokenRecord, reason: String, announce: Bool) async throws
        -> TokenRecord
    {
        var updated = details.applied(to: token)
        guard updated != token else { return token }
        updated.updatedAt = clock.now()
        let outbox =
            announce
            ? [
                try await tokens.publisher.prepare(
                    tenantID: token.tenantID,
                    message: .tokenChanged(updated, type: "token.updated", reasonCode: reason, actor: .network))
            ] : []
        guard
            let stored = try await tokens.store.updateTokenDetails(
                updated, change: AuditChange("mdes.token_details_updated", target: "token", token.id, reason: reason),
                outbox: outbox)
        else { throw MDESRefusal.value("tokenUniqueReference") }
        return stored
    }

    /// `notifySuspiciousEvents`: an audit line and a `token.suspicious_activity` webhook, in one
    /// transaction; the token does not change.
    func suspiciousActivity(_ token: TokenRecord, events: [String], networkStatus: String?) async throws {
        let entry = try await tokens.publisher.prepare(
            tenantID: token.tenantID,
            message: .suspiciousActivity(token, events: events, networkStatus: networkStatus))
        try await tokens.store.appendAudit(
            AuditChange(
                "mdes.suspicious_events", target: "token", token.id, reason: String(events.joined(separator: ",").prefix(128))),
            tenantID: token.tenantID, at: clock.now(), outbox: [entry])
    }
}
