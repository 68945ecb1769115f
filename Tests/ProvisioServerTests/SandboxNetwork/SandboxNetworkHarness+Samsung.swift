import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// What the issuer's backend hands its app for Samsung Pay, read from Provisio's answer
/// (`POST /v1/cards/{id}/provisioning/samsung-pay`): the one place that knows the route's shape.
struct SamsungPushData: Sendable {
    var cardType: SamsungCardType
    var provider: SamsungTokenizationProvider
    var provisionPayload: String
    var displayName: String
    var lastDigits: String
}

extension SandboxNetworkHarness {
    /// The issuer app's `PartnerInfo`.
    static let samsungPartner = try! SamsungPartnerInfo(serviceID: "sbx-issuer-service", issuerName: "Provisio Test Bank")

    static let mastercardPAN = "5555555555554444"
    static let amexPAN = "378282246310005"

    /// Another card of the tenant's cardholder.
    func makeCard(pan: String) async throws -> String {
        try await server.makeCard(apiKey: apiKey, pan: pan).id
    }

    /// Provisio's Samsung Pay answer for a card (the harness's Visa card unless named), asked
    /// with the ids `getWalletInfo` gave when the app has them.
    func samsungPushData(cardID: String? = nil, walletInfo: SamsungWalletInfo? = nil) async throws -> SamsungPushData {
        let answer = try await server.api(apiKey).provisionSamsungPay(
            path: .init(id: cardID ?? self.cardID),
            body: .json(.init(deviceId: walletInfo?.deviceID, walletUserId: walletInfo?.walletUserID))
        ).ok.body.json
        let push = SamsungPushData(
            cardType: try #require(SamsungCardType(rawValue: answer.cardType.rawValue)),
            provider: try #require(SamsungTokenizationProvider(rawValue: answer.tokenizationProvider.rawValue)),
            provisionPayload: answer.provisionPayload, displayName: answer.displayName, lastDigits: answer.lastDigits)
        let bytes = try #require(server.answers.all.last { $0.operationID == "provisionSamsungPay" })
        for pan in [Self.pan, Self.mastercardPAN, Self.amexPAN] { #expect(!bytes.text.contains(pan)) }
        return push
    }

    /// What the app builds from it: `AddCardInfo(cardType, tokenizationProvider, {provisionPayload})`.
    func addCardInfo(_ push: SamsungPushData) throws -> SamsungAddCardInfo {
        try SamsungAddCardInfo(
            cardType: push.cardType, tokenizationProvider: push.provider,
            cardDetail: [SamsungAddCardInfo.provisionPayloadKey: push.provisionPayload])
    }

    /// The app's whole sequence on the phone: status, card list, wallet info, Provisio's data, `addCard`.
    func addToSamsung(_ samsung: SandboxSamsungWallet, cardID: String? = nil) async throws -> SamsungCard {
        #expect(await samsung.getSamsungPayStatus(Self.samsungPartner) == .ready)
        _ = try await samsung.getAllCards(Self.samsungPartner)
        let walletInfo = try await samsung.getWalletInfo(Self.samsungPartner)
        let push = try await samsungPushData(cardID: cardID, walletInfo: walletInfo)
        return try await samsung.addCard(addCardInfo(push), Self.samsungPartner)
    }

    /// The same through `WatchManager`, to the Galaxy Watch.
    func addToWatch(_ samsung: SandboxSamsungWallet, cardID: String? = nil) async throws -> SamsungCard {
        let manager = samsung.watchManager(Self.samsungPartner)
        #expect(await manager.getSamsungPayStatus() == .ready)
        _ = try await manager.getAllCards()
        let push = try await samsungPushData(cardID: cardID, walletInfo: try await manager.getWalletInfo())
        return try await manager.addCard(addCardInfo(push))
    }

    /// A card's state as the app reads it with `getAllCards` on its device.
    func samsungState(_ card: SamsungCard, in samsung: SandboxSamsungWallet) async throws -> SamsungCardState? {
        let listed =
            card.deviceType == .gear
            ? try await samsung.watchManager(Self.samsungPartner).getAllCards()
            : try await samsung.getAllCards(Self.samsungPartner)
        return listed.first { $0.cardID == card.cardID }?.cardStatus
    }

    /// The network's token behind a Samsung card, and Provisio's record of it.
    func tokens(of card: SamsungCard) async throws -> (NetworkToken, Components.Schemas.Token) {
        let networkToken = try #require(await network.allTokens().last { $0.passSerialNumber == card.cardID })
        let issued = try await server.api(apiKey).getToken(path: .init(id: try #require(networkToken.issuerTokenID))).ok.body.json
        return (networkToken, issued)
    }

    /// No card number in anything Samsung Wallet holds or answered, in what Provisio answered,
    /// nor in any log line.
    func expectNoPANInSamsung(_ samsung: SandboxSamsungWallet, also answers: [String] = []) async throws {
        let partner = Self.samsungPartner
        _ = await samsung.getSamsungPayStatus(partner)
        _ = await samsung.watchManager(partner).getSamsungPayStatus()
        var texts = answers
        for card in try await samsung.getAllCards(partner) + (try await samsung.watchManager(partner).getAllCards()) {
            texts.append(String(reflecting: card))
            texts.append("\(card.cardInfo)")
        }
        texts.append(String(reflecting: try await samsung.getWalletInfo(partner)))
        for text in texts {
            for pan in [Self.pan, Self.mastercardPAN, Self.amexPAN] { #expect(!text.contains(pan), "PAN in \(text)") }
        }
        for answer in server.answers.all { #expect(!answer.text.contains(Self.pan), "PAN in \(answer.operationID)") }
        #expect(!server.logs.text.contains(Self.pan), "PAN in the logs")
    }
}
