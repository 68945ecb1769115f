import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxAPI

/// The network's tokens and what the cardholder does with them: verify a pending token with
/// the issuer's activation data (TAV) or a one-time code, remove the card from Wallet, lose the
/// device; and the network's own end of life for a token.
extension SandboxAPIHandler {
    func listTokens(_ input: Operations.ListTokens.Input) async throws -> Operations.ListTokens.Output {
        .ok(.init(body: .json(.init(tokens: await world.network.allTokens().map(Components.Schemas.Token.init)))))
    }

    func getToken(_ input: Operations.GetToken.Input) async throws -> Operations.GetToken.Output {
        guard let token = await world.network.token(networkTokenRef: input.path.ref) else {
            throw ProvisioError(.sandboxNetworkTokenUnknown, "The network has no token with this reference.")
        }
        return .ok(.init(body: .json(.init(token))))
    }

    func verifyActivationData(_ input: Operations.VerifyActivationData.Input) async throws
        -> Operations.VerifyActivationData.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let token = try await world.network.verifyActivationData(
            networkTokenRef: input.path.ref, activationData: body.activationData)
        return .ok(.init(body: .json(.init(token))))
    }

    /// The body is `{}`, left out, or names the channel the cardholder chose (`sms` by default).
    func requestOneTimeCode(_ input: Operations.RequestOneTimeCode.Input) async throws
        -> Operations.RequestOneTimeCode.Output
    {
        var channel = SandboxOTPChannel.sms
        if case .json(let body) = input.body, let chosen = body.channel { channel = chosen == .email ? .email : .sms }
        let otp = try await world.network.requestOTP(networkTokenRef: input.path.ref, channel: channel)
        let channels = await world.network.otpChannels(networkTokenRef: input.path.ref)
        return .ok(.init(body: .json(.init(otp, channels: channels))))
    }

    func verifyOneTimeCode(_ input: Operations.VerifyOneTimeCode.Input) async throws -> Operations.VerifyOneTimeCode.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let token = try await world.network.verifyOTP(networkTokenRef: input.path.ref, code: body.code)
        return .ok(.init(body: .json(.init(token))))
    }

    func reportTokenEvent(_ input: Operations.ReportTokenEvent.Input) async throws -> Operations.ReportTokenEvent.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let ref = input.path.ref
        let token: NetworkToken
        switch body.event {
        case .removedFromWallet: token = try await world.network.removeFromWallet(networkTokenRef: ref)
        case .deviceLost: token = try await world.network.reportDeviceLost(networkTokenRef: ref)
        case .tokenExpired: token = try await world.network.expireToken(networkTokenRef: ref)
        }
        return .ok(.init(body: .json(.init(token))))
    }
}
