import Foundation
import Hummingbird
import ProvisioCore

/// Tokens for the issuer's backend: list per card, read with history, suspend / resume /
/// delete, and activation of a pending token (TAV for in-app verification, or customer
/// service).
struct TokenRoutes {
    let tokens: TokenService

    func register(on group: RouterGroup<ProvisioRequestContext>) {
        group.get("tokens") { request, context in
            let query = request.uri.queryParameters
            guard let cardID = query.get("card_id") else {
                throw ProvisioError(.invalidParameter, "The query parameter card_id is required.")
            }
            let page = try await tokens.tokens(
                cardID: cardID, tenantID: try context.requirePrincipal().tenantID, cursor: query.get("cursor"),
                limit: try IssuerRoutes.limit(query.get("limit")))
            return try JSONCoding.response(ListWire(data: page.items.map { TokenWire($0) }, nextCursor: page.nextCursor))
        }
        group.get("tokens/:id") { _, context in
            let token = try await tokens.token(id: try Self.id(context), tenantID: try context.requirePrincipal().tenantID)
            return try JSONCoding.response(TokenWire(token, events: try await tokens.events(of: token)))
        }
        group.post("tokens/:id/transitions") { request, context in
            let body = try await JSONCoding.decode(TokenTransitionBody.self, from: request, context: context)
            let token = try await tokens.token(id: try Self.id(context), tenantID: try context.requirePrincipal().tenantID)
            let event: TokenEvent
            switch body.action {
            case "suspend": event = .suspend(by: .issuer)
            case "resume": event = .resume(by: .issuer)
            case "delete": event = .delete(by: .issuer)
            default: throw ProvisioError(.invalidParameter, "action must be suspend, resume or delete.")
            }
            return try JSONCoding.response(
                TokenWire(try await tokens.issuerChange(event, to: token, reasonCode: body.reasonCode)))
        }
        group.post("tokens/:id/activation") { request, context in
            let body = try await JSONCoding.decode(TokenActivationBody.self, from: request, context: context)
            let token = try await tokens.token(id: try Self.id(context), tenantID: try context.requirePrincipal().tenantID)
            switch body.mode {
            case "tav":
                let (data, validUntil) = try await tokens.activationData(for: token)
                return try JSONCoding.response(ActivationDataWire(activationData: data, validUntil: validUntil))
            case "customer_service":
                guard let reason = body.reasonCode else {
                    throw ProvisioError(.invalidParameter, "reason_code is required for customer_service activation.")
                }
                let activated = try await tokens.issuerChange(.verified(.customerService), to: token, reasonCode: reason)
                return try JSONCoding.response(TokenWire(activated))
            default:
                throw ProvisioError(.invalidParameter, "mode must be tav or customer_service.")
            }
        }
    }

    static func id(_ context: ProvisioRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), !id.isEmpty, id.count <= 64 else {
            throw ProvisioError(.tokenNotFound, "No token with this id.")
        }
        return id
    }
}

struct ActivationDataWire: Encodable {
    var activationData: String
    var validUntil: Date

    enum CodingKeys: String, CodingKey {
        case activationData = "activation_data"
        case validUntil = "valid_until"
    }
}

/// The card network's API (`Authorization: Bearer prv_nk_…`): decisions on new tokens and the
/// lifecycle events the network originates or confirms.
struct NetworkRoutes {
    let tokens: TokenService
    let otpRelay: OTPRelay

    static let networkEvents: [String: TokenEvent] = [
        "activated": .verified(.tav), "otp_verified": .verified(.otp), "suspended": .suspend(by: .network),
        "resumed": .resume(by: .network), "deleted": .delete(by: .network), "removed_from_wallet": .delete(by: .network),
        "device_lost": .suspend(by: .network), "token_expired": .delete(by: .network),
    ]

    func register(on group: RouterGroup<ProvisioRequestContext>) {
        group.post("token-requests") { request, context in
            let body = try await JSONCoding.decode(NetworkTokenRequestBody.self, from: request, context: context)
            let (token, decision) = try await tokens.decide(try body.request(), tenantID: try context.requirePrincipal().tenantID)
            return try JSONCoding.response(
                NetworkDecisionWire(
                    tokenID: token.id, decision: decision.outcome.rawValue, reasons: decision.reasons,
                    state: token.state.rawValue,
                    activationMethods: decision.outcome == .requireVerification
                        ? ["app_to_app", "otp_sms", "customer_service"] : nil))
        }
        group.post("tokens/:ref/otp") { request, context in
            let body = try await JSONCoding.decode(NetworkOTPBody.self, from: request, context: context)
            let channels = try await tokens.relayOTP(
                networkTokenRef: context.parameters.get("ref") ?? "", tenantID: try context.requirePrincipal().tenantID,
                code: body.code, expiresAt: body.expiresAt, relay: otpRelay)
            return try JSONCoding.response(OTPChannelsWire(channels: channels))
        }
        group.post("tokens/:ref/events") { request, context in
            let body = try await JSONCoding.decode(NetworkTokenEventBody.self, from: request, context: context)
            guard let event = Self.networkEvents[body.event] else {
                throw ProvisioError(
                    .invalidParameter, "event must be one of \(Self.networkEvents.keys.sorted().joined(separator: ", ")).")
            }
            let tenantID = try context.requirePrincipal().tenantID
            guard let ref = context.parameters.get("ref"),
                let token = try await tokens.store.token(networkTokenRef: ref, tenantID: tenantID)
            else {
                throw ProvisioError(.tokenNotFound, "No token with this network reference.")
            }
            let updated = try await tokens.apply(
                event, to: token, reasonCode: body.reasonCode ?? body.event, networkState: body.event)
            return try JSONCoding.response(TokenWire(updated))
        }
    }
}
