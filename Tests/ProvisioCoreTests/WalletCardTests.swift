import Foundation
import Testing

@testable import ProvisioCore

/// The App Group form of `WalletCard`: what apps wrote as `ExtensionCard` stays readable, and is
/// written with the same keys.
@Suite struct WalletCardTests {
    static let oldFormat = #"""
        {"artReference":"card_1.png","cardholderName":"Jane Appleseed","id":"card_1","last4":"4242",
         "network":"mastercard","primaryAccountIdentifier":"pai_1","title":"Acme Gold"}
        """#

    static func keys(_ data: Data) throws -> Set<String> {
        Set(try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]).keys)
    }

    @Test func theFormerExtensionCardJSONDecodes() throws {
        let card = try ExtensionJSON.decoder().decode(WalletCard.self, from: Data(Self.oldFormat.utf8))
        #expect(
            card
                == WalletCard(
                    id: "card_1", primaryAccountIdentifier: "pai_1", title: "Acme Gold", last4: "4242",
                    cardholderName: "Jane Appleseed", network: .mastercard, artReference: "card_1.png"))
        #expect(card.problems().isEmpty)
    }

    @Test func encodesWithTheFormerKeysOnly() throws {
        var card = try ExtensionJSON.decoder().decode(WalletCard.self, from: Data(Self.oldFormat.utf8))
        let data = try ExtensionJSON.encoder().encode(card)
        #expect(try Self.keys(data) == Self.keys(Data(Self.oldFormat.utf8)))
        #expect(try ExtensionJSON.decoder().decode(WalletCard.self, from: data) == card)

        // The art's URL is the app's business; the extensions read the file.
        card.cardArtURL = "https://art.example/1.png"
        #expect(try ExtensionJSON.encoder().encode(card) == data)
        // Absent optionals stay absent, as before.
        card.cardholderName = nil
        card.network = nil
        #expect(
            try Self.keys(ExtensionJSON.encoder().encode(card))
                == ["artReference", "id", "last4", "primaryAccountIdentifier", "title"])
    }

    @Test func anUnknownNetworkDecodesAsUnknown() throws {
        let json = Self.oldFormat.replacingOccurrences(of: "\"mastercard\"", with: "\"futurenet\"")
        let card = try ExtensionJSON.decoder().decode(WalletCard.self, from: Data(json.utf8))
        #expect(card.network == .unknown)
        #expect(card.requestConfiguration.paymentNetwork == nil)
    }

    @Test func theExtensionsNeedAnArtReference() throws {
        let json = Self.oldFormat.replacingOccurrences(of: #""artReference":"card_1.png","#, with: "")
        let card = try ExtensionJSON.decoder().decode(WalletCard.self, from: Data(json.utf8))
        #expect(card.artReference == nil)
        #expect(card.problems().map(\.code) == [.extensionCardInvalidArtReference])
        var listed = card
        listed.artReference = "card_1.png"
        #expect(listed.problems().isEmpty)
    }
}
