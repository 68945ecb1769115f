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

    /// Provisio's Samsung Pay answer for a card (the harness's Visa card unless named). Read
    /// from the bytes, so it takes the agreed Samsung shape (`card_type`, `tokenization_provider`,
    /// `provision_payload`: Base64 of the JWE) and, until the server answers it, the Google shape
    /// the route answered before (`opaque_payment_card`: the JWE itself).
    func samsungPushData(cardID: String? = nil) async throws -> SamsungPushData {
        let answer = try await server.raw.send(
            .post, "/v1/cards/\(cardID ?? self.cardID)/provisioning/samsung-pay", token: apiKey, body: Data("{}".utf8))
        #expect(answer.status == 200, "\(answer.text)")
        let json = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        func text(_ key: String) throws -> String { try #require(json[key] as? String, "no \(key)") }
        let push: SamsungPushData
        if json["provision_payload"] != nil {
            push = SamsungPushData(
                cardType: try #require(SamsungCardType(rawValue: try text("card_type"))),
                provider: try #require(SamsungTokenizationProvider(rawValue: try text("tokenization_provider"))),
                provisionPayload: try text("provision_payload"), displayName: try text("display_name"),
                lastDigits: try text("last_digits"))
        } else {
            let providers: [String: SamsungTokenizationProvider] = [
                "TOKEN_PROVIDER_VISA": .visa, "TOKEN_PROVIDER_MASTERCARD": .mastercard, "TOKEN_PROVIDER_AMEX": .amex,
                "TOKEN_PROVIDER_DISCOVER": .discover,
            ]
            push = SamsungPushData(
                cardType: .creditDebit, provider: try #require(providers[try text("token_service_provider")]),
                provisionPayload: Data(try text("opaque_payment_card").utf8).base64EncodedString(),
                displayName: try text("display_name"), lastDigits: try text("last_digits"))
        }
        for pan in [Self.pan, Self.mastercardPAN, Self.amexPAN] { #expect(!answer.text.contains(pan)) }
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
        _ = try await samsung.getWalletInfo(Self.samsungPartner)
        return try await samsung.addCard(addCardInfo(try await samsungPushData(cardID: cardID)), Self.samsungPartner)
    }

    /// The same through `WatchManager`, to the Galaxy Watch.
    func addToWatch(_ samsung: SandboxSamsungWallet, cardID: String? = nil) async throws -> SamsungCard {
        let manager = samsung.watchManager(Self.samsungPartner)
        #expect(await manager.getSamsungPayStatus() == .ready)
        _ = try await manager.getAllCards()
        return try await manager.addCard(addCardInfo(try await samsungPushData(cardID: cardID)))
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
