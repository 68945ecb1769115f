import Hummingbird
import ProvisioCore
import ProvisioSandbox

/// The network's tokens and what the cardholder does with them: verify a pending token with
/// the issuer's activation data (TAV) or a one-time code, remove the card from Wallet, lose the
/// device; and the network's own end of life for a token.
struct TokenRoutes {
    let network: SandboxNetworkTokenService

    func register(on group: RouterGroup<SandboxRequestContext>) {
        let network = self.network
        group.get("tokens") { request, _ -> Response in
            _ = try SandboxRequestParameters.query(of: request, allowed: [])
            return try SandboxJSON.response(SandboxWire.TokenList(await network.allTokens()))
        }
        group.get("tokens/:ref") { _, context -> Response in
            let ref = try SandboxRequestParameters.path("ref", in: context)
            guard let token = await network.token(networkTokenRef: ref) else {
                throw ProvisioError(.sandboxNetworkTokenUnknown, "The network has no token with this reference.")
            }
            return try SandboxJSON.response(SandboxWire.Token(token))
        }
        group.post("tokens/:ref/tav") { request, context -> Response in
            let ref = try SandboxRequestParameters.path("ref", in: context)
            let body = try await SandboxJSON.decode(SandboxWire.TAVRequest.self, from: request, context: context)
            let token = try await network.verifyActivationData(networkTokenRef: ref, activationData: body.activationData)
            return try SandboxJSON.response(SandboxWire.Token(token))
        }
        group.post("tokens/:ref/otp") { request, context -> Response in
            let ref = try SandboxRequestParameters.path("ref", in: context)
            _ = try await SandboxJSON.decodeOptional(SandboxWire.EmptyRequest.self, from: request, context: context)
            let otp = try await network.requestOTP(networkTokenRef: ref)
            let channels = await network.otpChannels(networkTokenRef: ref)
            return try SandboxJSON.response(SandboxWire.OTPChallenge(otp, channels: channels))
        }
        group.post("tokens/:ref/otp/verification") { request, context -> Response in
            let ref = try SandboxRequestParameters.path("ref", in: context)
            let body = try await SandboxJSON.decode(SandboxWire.OTPVerificationRequest.self, from: request, context: context)
            let token = try await network.verifyOTP(networkTokenRef: ref, code: body.code)
            return try SandboxJSON.response(SandboxWire.Token(token))
        }
        group.post("tokens/:ref/events") { request, context -> Response in
            let ref = try SandboxRequestParameters.path("ref", in: context)
            let body = try await SandboxJSON.decode(SandboxWire.TokenEventRequest.self, from: request, context: context)
            let token: NetworkToken
            switch body.event {
            case .removedFromWallet: token = try await network.removeFromWallet(networkTokenRef: ref)
            case .deviceLost: token = try await network.reportDeviceLost(networkTokenRef: ref)
            case .tokenExpired: token = try await network.expireToken(networkTokenRef: ref)
            }
            return try SandboxJSON.response(SandboxWire.Token(token))
        }
    }
}
