import Foundation
import ProvisioCore

/// Records as the console's templates read them: plain string dictionaries (Mustache escapes
/// every value it writes into the page). Never a PAN: cards show their last four digits.
enum ConsoleViews {
    static func time(_ date: Date?) -> String {
        date.map { $0.formatted(.iso8601) } ?? ""
    }

    static func card(_ card: CardRecord) -> [String: Any] {
        [
            "id": card.id, "customerRef": card.customerRef, "last4": card.last4, "network": card.network.rawValue,
            "expiry": (try? CardExpiry(month: card.expiryMonth, year: card.expiryYear).slashed) ?? "",
            "cardholderName": card.cardholderName, "status": card.status.rawValue, "createdAt": time(card.createdAt),
        ]
    }

    static func token(_ token: TokenRecord, card: CardRecord? = nil) -> [String: Any] {
        [
            "id": token.id, "state": token.state.rawValue, "networkState": token.networkState ?? "",
            "decision": token.decision.rawValue, "reasons": token.decisionReasons.joined(separator: ", "),
            "cardID": token.cardID, "cardLast4": card?.last4 ?? "", "customerRef": card?.customerRef ?? "",
            "wallet": ConsoleWords.wallet(token.wallet), "deviceType": ConsoleWords.device(token.deviceType),
            "deviceAccountID": token.deviceAccountIdentifier ?? "", "tokenLast4": token.tokenLast4 ?? "",
            "networkTokenRef": token.networkTokenRef, "createdAt": time(token.createdAt),
        ]
    }

    static func event(_ event: TokenEventRecord) -> [String: Any] {
        [
            "createdAt": time(event.createdAt), "type": event.type, "from": event.fromState?.rawValue ?? "",
            "to": event.toState.rawValue, "actor": event.actor.rawValue, "reason": event.reasonCode ?? "",
        ]
    }

    static func attempt(_ attempt: ProvisioningAttemptRecord) -> [String: Any] {
        [
            "createdAt": time(attempt.createdAt), "wallet": ConsoleWords.wallet(attempt.wallet),
            "deviceType": ConsoleWords.device(attempt.deviceType), "scheme": attempt.encryptionScheme?.rawValue ?? "",
            "outcome": attempt.outcome.rawValue, "errorCode": attempt.errorCode ?? "",
        ]
    }

    static func audit(_ event: AuditEventRecord) -> [String: Any] {
        [
            "createdAt": time(event.createdAt), "action": event.action, "targetType": event.targetType,
            "targetID": event.targetID,
            "actor": [event.actor.kind.rawValue, event.actor.id].compactMap { $0 }.joined(separator: " "),
            "reason": event.reason ?? "", "requestID": event.requestID ?? "",
        ]
    }

    static func delivery(_ delivery: WebhookDeliveryRecord) -> [String: Any] {
        [
            "id": delivery.id, "eventID": delivery.eventID, "endpointID": delivery.endpointID,
            "state": delivery.state.rawValue, "attemptCount": String(delivery.attemptCount),
            "lastStatus": delivery.lastResponseStatus.map(String.init) ?? "", "lastError": delivery.lastError ?? "",
            "updatedAt": time(delivery.updatedAt),
        ]
    }

    static func deliveryAttempt(_ attempt: WebhookAttemptRecord) -> [String: Any] {
        [
            "attemptedAt": time(attempt.attemptedAt), "status": attempt.responseStatus.map(String.init) ?? "",
            "error": attempt.error ?? "", "duration": String(attempt.durationMilliseconds),
        ]
    }

    static func apiKey(_ key: APIKeyRecord) -> [String: Any] {
        var view: [String: Any] = [
            "id": key.id, "name": key.name, "scope": key.scope.rawValue, "createdAt": time(key.createdAt),
            "lastUsedAt": time(key.lastUsedAt),
        ]
        // Absent, not empty, so that `{{^revokedAt}}` shows the revoke button.
        if let revoked = key.revokedAt { view["revokedAt"] = time(revoked) }
        return view
    }

    /// A product's row; the art by its path on this server (the page's own origin).
    static func cardProduct(_ product: CardProductRecord, artURL: String?) -> [String: Any] {
        let settings = product.settings
        var view: [String: Any] = [
            "id": product.id, "name": settings.name, "isDefault": product.isDefault,
            "apps": settings.associatedApplicationIdentifiers.joined(separator: ", "),
            "appLaunchURL": settings.appLaunchURL ?? "", "contactName": settings.contactName ?? "",
            "supportPhone": settings.supportPhone ?? "", "supportEmail": settings.supportEmail ?? "",
            "terms": settings.termsVersion.map { "\($0) (\(settings.termsURL ?? ""))" } ?? "",
            "methods": settings.activationMethods.joined(separator: ", "), "updatedAt": time(product.updatedAt),
        ]
        if let artURL { view["artURL"] = artURL }
        return view
    }

    static func operatorView(_ record: OperatorRecord) -> [String: Any] {
        var view: [String: Any] = [
            "id": record.id, "email": record.email, "role": record.role.rawValue, "createdAt": time(record.createdAt),
        ]
        if let disabled = record.disabledAt { view["disabledAt"] = time(disabled) }
        return view
    }
}
