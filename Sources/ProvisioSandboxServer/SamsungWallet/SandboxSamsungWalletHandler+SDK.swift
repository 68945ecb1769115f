import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxSamsungWalletAPI

/// The Samsung Pay SDK's calls, as the issuer's app makes them on the phone or the watch: the
/// status and what the cardholder does about it, the wallet's ids, the card list and `addCard`.
extension SandboxSamsungWalletHandler {
    func getSamsungPayStatus(_ input: Operations.GetSamsungPayStatus.Input) async throws
        -> Operations.GetSamsungPayStatus.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let status = try await sdk(input.path.device, body.partnerInfo).getSamsungPayStatus()
        return .ok(.init(body: .json(.init(status))))
    }

    func activateSamsungPay(_ input: Operations.ActivateSamsungPay.Input) async throws
        -> Operations.ActivateSamsungPay.Output
    {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        try await sdk(input.path.device, body.partnerInfo).activateSamsungPay()
        return .noContent(.init())
    }

    func goToUpdatePage(_ input: Operations.GoToUpdatePage.Input) async throws -> Operations.GoToUpdatePage.Output {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        try await sdk(input.path.device, body.partnerInfo).goToUpdatePage()
        return .noContent(.init())
    }

    func getWalletInfo(_ input: Operations.GetWalletInfo.Input) async throws -> Operations.GetWalletInfo.Output {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let info = try await sdk(input.path.device, body.partnerInfo).getWalletInfo()
        return .ok(.init(body: .json(.init(info))))
    }

    func getAllCards(_ input: Operations.GetAllCards.Input) async throws -> Operations.GetAllCards.Output {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let cards = try await sdk(input.path.device, body.partnerInfo).getAllCards()
        return .ok(.init(body: .json(.init(cards: cards.map(Components.Schemas.Card.init)))))
    }

    /// The body's three card fields are Provisio's Samsung Pay answer; the SDK checks them as it
    /// builds `AddCardInfo` (-2, -12), after `PartnerInfo` (-99).
    func addCard(_ input: Operations.AddCard.Input) async throws -> Operations.AddCard.Output {
        guard case .json(let body) = input.body else { throw SandboxAPIHandler.unreadableBody() }
        let sdk = try sdk(input.path.device, body.partnerInfo)
        let info = try SamsungAddCardInfo(
            cardType: .init(body.cardType), tokenizationProvider: .init(body.tokenizationProvider),
            cardDetail: [SamsungAddCardInfo.provisionPayloadKey: body.provisionPayload])
        let card = try await sdk.addCard(info)
        logger.info(
            "Samsung Wallet added a card",
            metadata: [
                "card_id": "\(card.cardID)", "device": "\(input.path.device.rawValue)", "state": "\(card.cardStatus.rawValue)",
            ])
        return .created(.init(body: .json(.init(card))))
    }
}
