import Foundation
import ProvisioAPI
import ProvisioCore

/// The card network's API (`Authorization: Bearer prv_nk_…`): decisions on new tokens and the
/// lifecycle events the network originates or confirms.
extension ProvisioAPIHandler {
    func requestTokenDecision(_ input: Operations.RequestTokenDecision.Input) async throws
        -> Operations.RequestTokenDecision.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let request = TokenService.TokenRequest(
            pan: try PrimaryAccountNumber(body.pan), expiry: try CardExpiry(month: body.expiryMonth, year: body.expiryYear),
            wallet: Wallet(body.wallet), deviceType: body.deviceType.map(DeviceType.init),
            networkTokenRef: body.networkTokenRef, tokenLast4: body.tokenLast4,
            deviceAccountIdentifier: body.deviceAccountIdentifier,
            risk: RiskAssessment(
                deviceScore: body.risk.deviceScore, accountScore: body.risk.accountScore,
                walletRecommendation: DecisionOutcome(body.risk.walletRecommendation)))
        let tenantID = try Self.tenantID()
        let (token, decision) = try await services.tokens.decide(request, tenantID: tenantID)
        // A declined token gets neither offers nor the product: the card is read once, otherwise.
        var offers: [ActivationOffer]?
        var profile: CardProfile?
        if decision.outcome != .decline {
            let card = try await services.cards.card(id: token.cardID, tenantID: tenantID)
            // A yellow token's ways to activate, for this device and this card's contacts.
            if decision.outcome == .requireVerification {
                offers = try await services.tokens.activationOffers(device: request.deviceType, card: card)
            }
            // What the wallet shows and honours for the card's product.
            let products = services.cardProducts
            profile = try await products.product(of: card).map(products.profile(of:))
        }
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(
                    .init(
                        tokenId: token.id, decision: .init(decision.outcome), reasons: decision.reasons,
                        state: .init(token.state),
                        activationMethods: try offers?.map { try Self.wire($0.method) },
                        activationOffers: try offers?.map {
                            Components.Schemas.ActivationOffer(method: try Self.wire($0.method), contact: $0.contact)
                        }, cardProfile: profile.map(Components.Schemas.CardProfile.init)))))
    }

    /// A method as the document names it; its enums list the same four.
    static func wire<Wire: RawRepresentable<String>>(_ method: ActivationMethod) throws -> Wire {
        guard let wire = Wire(rawValue: method.rawValue) else {
            throw ProvisioError(.internalError, "The server could not complete the request.")
        }
        return wire
    }

    func reportTokenEvent(_ input: Operations.ReportTokenEvent.Input) async throws -> Operations.ReportTokenEvent.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let (event, name) = Self.networkEvent(body.event)
        let tenantID = try Self.tenantID()
        guard let token = try await services.tokens.store.token(networkTokenRef: input.path.ref, tenantID: tenantID) else {
            throw ProvisioError(.tokenNotFound, "No token with this network reference.")
        }
        let updated = try await services.tokens.apply(
            event, to: token, reasonCode: body.reasonCode ?? name, networkState: name)
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(Components.Schemas.Token(updated))))
    }

    func relayOneTimeCode(_ input: Operations.RelayOneTimeCode.Input) async throws -> Operations.RelayOneTimeCode.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let details = OTPRequestDetails(
            challengeID: body.challengeId ?? RandomToken.identifier(prefix: "chl_"),
            channel: body.channel.flatMap { OTPChannelChoice(rawValue: $0.rawValue) } ?? .sms,
            device: body.device.map {
                OTPDeviceInfo(
                    name: $0.name, os: $0.os, osVersion: $0.osVersion, serialNumber: $0.serialNumber, imei: $0.imei,
                    msisdn: $0.msisdn)
            }, tokenRequestor: body.tokenRequestor.map { TokenRequestorInfo(id: $0.id, name: $0.name) })
        let channels = try await services.tokens.relayOTP(
            networkTokenRef: input.path.ref, tenantID: try Self.tenantID(), code: body.code, expiresAt: body.expiresAt,
            details: details, relay: services.otpRelay)
        return .ok(
            .init(
                headers: .init(xRequestId: try Self.requestID()),
                body: .json(.init(channels: try channels.map(Self.otpChannel)))))
    }

    /// What a network event does to the token, and its name (recorded as the network's state,
    /// and the reason when the network gives none).
    static func networkEvent(_ event: Components.Schemas.NetworkTokenEventRequest.EventPayload) -> (TokenEvent, String) {
        switch event {
        case .activated: (.verified(.tav), "activated")
        case .otpVerified: (.verified(.otp), "otp_verified")
        case .suspended: (.suspend(by: .network), "suspended")
        case .resumed: (.resume(by: .network), "resumed")
        case .deleted: (.delete(by: .network), "deleted")
        case .removedFromWallet: (.delete(by: .network), "removed_from_wallet")
        case .deviceLost: (.suspend(by: .network), "device_lost")
        case .tokenExpired: (.delete(by: .network), "token_expired")
        }
    }

    /// A channel of the issuer's answer; `OTPRelay.parse` accepts only the documented types, so
    /// another is the server's own mistake.
    static func otpChannel(_ channel: OTPRelay.Channel) throws -> Components.Schemas.OTPChannels.ChannelsPayloadPayload {
        let type: Components.Schemas.OTPChannels.ChannelsPayloadPayload._TypePayload
        switch channel.type {
        case "sms": type = .sms
        case "email": type = .email
        case "voice": type = .voice
        case "app": type = .app
        default: throw ProvisioError(.internalError, "The server could not complete the request.")
        }
        return .init(_type: type, masked: channel.masked)
    }
}

extension DecisionOutcome {
    init(_ outcome: Components.Schemas.DecisionOutcome) {
        switch outcome {
        case .approve: self = .approve
        case .requireVerification: self = .requireVerification
        case .decline: self = .decline
        }
    }
}

/// The network's request carries the card's raw PAN: describing it (a log line, a test failure,
/// the generated code's `ServerError` description, which quotes the operation's input) shows
/// only the last four digits.
extension Components.Schemas.NetworkTokenRequest: CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public var description: String {
        "NetworkTokenRequest(network_token_ref: \(networkTokenRef), pan: •••• \(pan.suffix(4)))"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
