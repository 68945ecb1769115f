import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioJSON

// A webhook's body and the issuers' answers, as the document's `webhooks:` section declares
// them: built and read through the generated types only, so the document is their one
// description.

extension WebhookMessage {
    /// The signed body: `{type, timestamp, data}` in the wire's JSON (sorted keys, ISO 8601).
    func body(at timestamp: Date) throws -> Data {
        let type = try Self.wireType(type)
        let encoder = JSONCoding.encoder
        switch self {
        case .tokenChanged(let token, _, let reasonCode, let actor):
            var data = Components.Schemas.Token(token)
            data.reasonCode = reasonCode
            data.actor = actor == .issuer ? .issuer : .network
            return try encoder.encode(Components.Schemas.TokenWebhookEvent(_type: type, timestamp: timestamp, data: data))
        case .otpRequested(let token, let card, let code, let expiresAt, let details):
            let data = Components.Schemas.OtpRequest(
                token: .init(token), card: .init(card), code: code, expiresAt: expiresAt, challengeId: details.challengeID,
                channel: .init(rawValue: details.channel.rawValue), destinationMasked: details.destinationMasked,
                device: details.device.map(Components.Schemas.OTPDeviceInfo.init),
                tokenRequestor: details.tokenRequestor.map { .init(id: $0.id, name: $0.name) })
            return try encoder.encode(
                Components.Schemas.OtpRequestedWebhookEvent(_type: type, timestamp: timestamp, data: data))
        case .decisionRequested(let request):
            let data = Components.Schemas.DecisionRequest(
                networkTokenRef: request.networkTokenRef, wallet: .init(request.wallet),
                deviceType: request.deviceType.map(Components.Schemas.DeviceType.init), tokenLast4: request.tokenLast4,
                card: .init(request.card),
                risk: .init(
                    deviceScore: request.risk.deviceScore, accountScore: request.risk.accountScore,
                    walletRecommendation: .init(request.risk.walletRecommendation)),
                proposed: .init(outcome: .init(request.proposed.outcome), reasons: request.proposed.reasons))
            return try encoder.encode(
                Components.Schemas.DecisionRequestedWebhookEvent(_type: type, timestamp: timestamp, data: data))
        case .suspiciousActivity(let token, let events, let networkStatus):
            let data = Components.Schemas.SuspiciousActivity(token: .init(token), events: events, networkStatus: networkStatus)
            return try encoder.encode(
                Components.Schemas.SuspiciousActivityWebhookEvent(_type: type, timestamp: timestamp, data: data))
        case .test(let endpointID):
            return try encoder.encode(
                Components.Schemas.TestWebhookEvent(_type: type, timestamp: timestamp, data: .init(endpointId: endpointID)))
        }
    }

    /// Every event type the document declares, in its order.
    static var eventTypes: [String] { Components.Schemas.WebhookEventType.allCases.map(\.rawValue) }

    /// A type the document does not declare is a mistake of Provisio's, never of a caller.
    private static func wireType(_ type: String) throws -> Components.Schemas.WebhookEventType {
        guard let wire = Components.Schemas.WebhookEventType(rawValue: type) else {
            throw ProvisioError(.internalError, "The webhook event type \(type) is not in the document.")
        }
        return wire
    }

    /// The issuer's answer to `token.otp_requested`: the channels it sent the code to.
    static func otpChannels(from body: Data) throws -> [OTPRelay.Channel] {
        let answer = try decodeAnswer(Components.Schemas.OtpSent.self, from: body)
        return answer.channels.map { OTPRelay.Channel(type: $0._type.rawValue, masked: $0.masked) }
    }

    /// The issuer's answer to `token.decision_requested`.
    static func issuerDecision(from body: Data) throws -> (outcome: DecisionOutcome, reasons: [String]?) {
        let answer = try decodeAnswer(Components.Schemas.IssuerDecision.self, from: body)
        return (DecisionOutcome(answer.decision), answer.reasons)
    }

    /// Strict JSON first (no duplicate keys, no trailing garbage), then the document's type.
    private static func decodeAnswer<Answer: Decodable>(_ type: Answer.Type, from body: Data) throws -> Answer {
        _ = try StrictJSONParser.parse(body)
        return try JSONDecoder().decode(Answer.self, from: body)
    }
}

extension Components.Schemas.OTPDeviceInfo {
    init(_ device: OTPDeviceInfo) {
        self.init(
            name: device.name, os: device.os, osVersion: device.osVersion, serialNumber: device.serialNumber,
            imei: device.imei, msisdn: device.msisdn)
    }
}

extension Components.Schemas.WebhookCard {
    /// The card as a webhook shows it: its id, last four digits and the issuer's customer.
    init(_ card: CardRecord) {
        self.init(id: card.id, last4: card.last4, customerRef: card.customerRef)
    }
}
