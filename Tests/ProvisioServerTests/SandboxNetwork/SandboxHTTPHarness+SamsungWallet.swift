import Foundation
import ProvisioAPI
import ProvisioCore
import ProvisioSandbox
import Testing

@testable import ProvisioServer

/// What the issuer's backend hands its app for Samsung Pay, as Provisio answered it over HTTP.
struct SamsungPayAnswer: Sendable {
    var cardType: SandboxClient.SamsungWallet.CardType
    var provider: SandboxClient.SamsungWallet.TokenizationProvider
    var provisionPayload: String
}

extension SandboxHTTPHarness {
    typealias Samsung = SandboxClient.SamsungWallet

    /// The issuer app's `PartnerInfo`.
    static let samsungPartner = Samsung.PartnerInfo(
        serviceId: "sbx-issuer-service", serviceType: .app2app, issuerName: "Provisio Test Bank")

    static let mastercardPAN = "5555555555554444"
    static let amexPAN = "378282246310005"

    /// `SandboxClient`'s Samsung Wallet calls; every answer is held to the document and kept.
    var samsung: Samsung {
        SandboxClient(
            baseURL: "http://127.0.0.1:\(port)", apiKey: sandboxKey,
            middlewares: [DocumentedAnswers(contract: .samsungWallet, log: answers)]
        ).samsungWallet
    }

    /// Another card of the tenant's cardholder.
    func makeCard(pan: String) async throws -> String {
        try await server.makeCard(apiKey: issuerAPIKey, pan: pan).id
    }

    /// Provisio's `POST /v1/cards/{id}/provisioning/samsung-pay` for a card (the harness's Visa
    /// card unless named), read from the bytes: the Samsung shape (`card_type`,
    /// `tokenization_provider`, `provision_payload`), or, from a Provisio that still answers the
    /// Google shape (`opaque_payment_card`, the JWE itself), the same data.
    func samsungPayAnswer(cardID: String? = nil) async throws -> SamsungPayAnswer {
        let answer = try await server.raw.send(
            .post, "/v1/cards/\(cardID ?? self.cardID)/provisioning/samsung-pay", token: issuerAPIKey, body: Data("{}".utf8))
        #expect(answer.status == 200, "\(answer.text)")
        let json = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        func text(_ key: String) throws -> String { try #require(json[key] as? String, "no \(key)") }
        if json["provision_payload"] != nil {
            return SamsungPayAnswer(
                cardType: try #require(Samsung.CardType(rawValue: try text("card_type"))),
                provider: try #require(Samsung.TokenizationProvider(rawValue: try text("tokenization_provider"))),
                provisionPayload: try text("provision_payload"))
        }
        let providers: [String: Samsung.TokenizationProvider] = [
            "TOKEN_PROVIDER_VISA": .vi, "TOKEN_PROVIDER_MASTERCARD": .mc, "TOKEN_PROVIDER_AMEX": .ax,
            "TOKEN_PROVIDER_DISCOVER": .ds,
        ]
        return SamsungPayAnswer(
            cardType: .creditDebit, provider: try #require(providers[try text("token_service_provider")]),
            provisionPayload: Data(try text("opaque_payment_card").utf8).base64EncodedString())
    }

    /// The app's sequence on a device, over HTTP: status, card list, wallet info, Provisio's data, `addCard`.
    func addToSamsung(on device: Samsung.Device, cardID: String? = nil) async throws -> Samsung.Card {
        let partner = Self.samsungPartner
        #expect(try await samsung.getSamsungPayStatus(on: device, partner: partner).status == .spayReady)
        _ = try await samsung.getAllCards(on: device, partner: partner)
        _ = try await samsung.getWalletInfo(on: device, partner: partner)
        let push = try await samsungPayAnswer(cardID: cardID)
        return try await samsung.addCard(
            on: device, partner: partner, cardType: push.cardType, tokenizationProvider: push.provider,
            provisionPayload: push.provisionPayload)
    }

    /// A card's state as the app reads it with `getAllCards` on its device.
    func samsungState(_ card: Samsung.Card) async throws -> Samsung.CardState? {
        let device: Samsung.Device = card.deviceType == .gear ? .watch : .phone
        _ = try await samsung.getSamsungPayStatus(on: device, partner: Self.samsungPartner)
        return try await samsung.getAllCards(on: device, partner: Self.samsungPartner)
            .first { $0.cardId == card.cardId }?.cardStatus
    }

    /// Provisio's token behind a Samsung Wallet card: the sandbox network's token for the card
    /// (over the sandbox's API), then Provisio's record of it (over Provisio's).
    func issuerToken(of card: Samsung.Card) async throws -> ProvisioAPI.Components.Schemas.Token {
        let token = try #require(try await client.tokens().last { $0.passSerialNumber == card.cardId })
        return try await server.api(issuerAPIKey).getToken(path: .init(id: try #require(token.issuerTokenId))).ok.body
            .json
    }

    /// No card number — the cards' nor the tokens' — in any answer the harness kept, Provisio's
    /// included, nor in any log line.
    func expectNoPANInAnswers() async {
        let pans = [Self.pan, Self.mastercardPAN, Self.amexPAN] + (await tokenPANs())
        let kept = answers.all.map(\.text) + server.answers.all.map(\.text)
        #expect(answers.all.contains { $0.operationID == "addCard" }, "the Samsung answers were kept")
        for text in kept {
            for pan in pans { #expect(!text.contains(pan), "a PAN in an answer") }
        }
        for pan in pans { #expect(!server.logs.text.contains(pan), "a PAN in the logs") }
    }
}
