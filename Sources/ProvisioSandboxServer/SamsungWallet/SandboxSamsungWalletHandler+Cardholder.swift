import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxSamsungWalletAPI

/// What the cardholder does in Samsung Wallet with one card: the yellow path (a one-time code,
/// "Open banking app" and the app's answer) and deleting the card.
extension SandboxSamsungWalletHandler {
    func listVerificationMethods(_ input: Operations.ListVerificationMethods.Input) async throws
        -> Operations.ListVerificationMethods.Output
    {
        let methods = try await samsung.verificationMethods(cardID: input.path.cardId)
        return .ok(.init(body: .json(.init(methods: methods.map(Components.Schemas.VerificationMethod.init)))))
    }

    /// Samsung Wallet itself never sees the code (it goes to the cardholder through the issuer),
    /// so `requestOneTimeCode` keeps it from its caller. The sandbox also plays the cardholder's
    /// phone: once the wallet offers codes for the card, the network issues one for the card's
    /// token and the answer shows it, as the sandbox's own `requestOneTimeCode` does.
    func requestOneTimeCode(_ input: Operations.RequestOneTimeCode.Input) async throws
        -> Operations.RequestOneTimeCode.Output
    {
        let cardID = input.path.cardId
        guard try await samsung.verificationMethods(cardID: cardID).contains(.oneTimeCode) else {
            // Samsung Wallet's own refusal (`ERROR_NOT_SUPPORTED`), with its message.
            _ = try await samsung.requestOneTimeCode(cardID: cardID)
            throw ProvisioError(.sandboxSamsungNotSupported, "\(SamsungErrorCode.notSupported): no one-time code for this card.")
        }
        let ref = try await networkTokenRef(of: cardID)
        let otp = try await world.network.requestOTP(networkTokenRef: ref)
        let channels = await world.network.otpChannels(networkTokenRef: ref)
        return .ok(.init(body: .json(.init(otp, channels: channels))))
    }

    func submitOneTimeCode(_ input: Operations.SubmitOneTimeCode.Input) async throws
        -> Operations.SubmitOneTimeCode.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let card = try await samsung.submitOneTimeCode(body.code, cardID: input.path.cardId)
        return .ok(.init(body: .json(.init(card))))
    }

    func openBankingApp(_ input: Operations.OpenBankingApp.Input) async throws -> Operations.OpenBankingApp.Output {
        let request = try await samsung.openBankingApp(cardID: input.path.cardId)
        return .ok(.init(body: .json(.init(request))))
    }

    /// The app answers the intent Samsung Wallet started it with. The wallet builds that intent
    /// again for the card (the same for as long as the card is pending), so an answer is taken
    /// only while "Open banking app" is still offered for it.
    func completeAppToApp(_ input: Operations.CompleteAppToApp.Input) async throws -> Operations.CompleteAppToApp.Output {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let result: SamsungAppToAppResult
        switch body.result {
        case .accepted: result = .accepted(activationCode: body.activationCode)
        case .declined: result = .declined
        case .failure: result = .failure
        case .appNotReady: result = .appNotReady
        }
        if body.result != .accepted, body.activationCode != nil {
            throw ProvisioError(.sandboxInvalidRequest, "activation_code goes only with an accepted result.")
        }
        let request = try await samsung.openBankingApp(cardID: input.path.cardId)
        let card = try await samsung.completeAppToApp(request, result: result)
        return .ok(.init(body: .json(.init(card))))
    }

    func deleteCard(_ input: Operations.DeleteCard.Input) async throws -> Operations.DeleteCard.Output {
        let card = try await samsung.deleteCard(cardID: input.path.cardId)
        return .ok(.init(body: .json(.init(card))))
    }

    /// The network's token behind a Samsung Wallet card: the network knows the card by the id the
    /// wallet gave it on install.
    private func networkTokenRef(of cardID: String) async throws -> String {
        let token = await world.network.allTokens().last {
            $0.wallet == .samsungPay && $0.passSerialNumber == cardID
        }
        guard let token else {
            throw ProvisioError(.sandboxSamsungCardNotFound, "\(SamsungErrorCode.notFound): the card has no token.")
        }
        return token.networkTokenRef
    }
}
