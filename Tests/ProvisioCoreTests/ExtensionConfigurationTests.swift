import Foundation
import Testing

@testable import ProvisioCore

@Suite struct ExtensionConfigurationTests {
    typealias F = WalletFixtures

    func codes(_ configuration: ExtensionConfiguration) -> [ProvisioError.Code] { configuration.problems().map(\.code) }

    @Test func roundTripsThroughItsJSON() throws {
        let other = ExtensionAccount(issuerID: "beta", consumerID: "cust_9", cards: [F.extensionCard(9, network: nil)])
        let configuration = F.configuration([F.extensionCard(1), F.extensionCard(2, network: .mastercard)], more: [other])
        let data = try configuration.encoded()
        #expect(try ExtensionConfiguration.decode(from: data) == configuration)
        #expect(try configuration.encoded() == data)  // stable bytes
        #expect(try ExtensionJSON.decoder().decode(ExtensionConfiguration.self, from: data).version == 1)
    }

    @Test func twoHundredCardsAreValidAndRoundTrip() throws {
        let configuration = F.configuration((1...200).map { F.extensionCard($0) })
        #expect(configuration.problems().isEmpty)
        #expect(configuration.cards.count == 200)
        #expect(try ExtensionConfiguration.decode(from: configuration.encoded()) == configuration)
    }

    @Test func anUnknownNetworkNameDoesNotMakeTheFileUnreadable() throws {
        var json = String(decoding: try F.configuration([F.extensionCard(1)]).encoded(), as: UTF8.self)
        json = json.replacingOccurrences(of: "\"visa\"", with: "\"futurenet\"")
        let decoded = try ExtensionConfiguration.decode(from: Data(json.utf8))
        #expect(decoded.accounts[0].cards[0].network == .unknown)
        #expect(AddPassRequestConfiguration(card: decoded.accounts[0].cards[0]).paymentNetwork == nil)
    }

    @Test func unknownVersionIsRefusedBeforeTheLayout() {
        let error = #expect(throws: ProvisioError.self) {
            try ExtensionConfiguration.decode(from: Data(#"{"version": 2, "somethingNew": []}"#.utf8))
        }
        #expect(error?.code == .extensionConfigurationUnsupportedVersion)
        var configuration = F.configuration([F.extensionCard(1)])
        configuration.version = 0
        #expect(codes(configuration) == [.extensionConfigurationUnsupportedVersion])
    }

    @Test func unreadableBytes() {
        for bytes in ["not json", #"{"version": 1}"#, "[]"] {
            let error = #expect(throws: ProvisioError.self) { try ExtensionConfiguration.decode(from: Data(bytes.utf8)) }
            #expect(error?.code == .extensionConfigurationUnreadable)
        }
    }

    @Test func duplicateCardIdsAcrossAccounts() {
        var duplicate = F.extensionCard(1)
        duplicate.primaryAccountIdentifier = "pai_other"
        let other = ExtensionAccount(issuerID: "beta", consumerID: "cust_9", cards: [duplicate])
        let configuration = F.configuration([F.extensionCard(1)], more: [other])
        #expect(codes(configuration) == [.extensionConfigurationDuplicateCard])
        let error = #expect(throws: ProvisioError.self) { try configuration.validate() }
        #expect(error?.code == .extensionConfigurationDuplicateCard)
        #expect(error?.message.contains("card_1") == true)
    }

    @Test func duplicatePrimaryAccountIdentifiersAndAccounts() {
        var twin = F.extensionCard(2)
        twin.primaryAccountIdentifier = "pai_1"
        #expect(codes(F.configuration([F.extensionCard(1), twin])) == [.extensionConfigurationDuplicatePrimaryAccountIdentifier])
        let same = ExtensionAccount(issuerID: F.account.issuerID, consumerID: F.account.consumerID, cards: [])
        #expect(codes(F.configuration([], more: [same])) == [.extensionConfigurationDuplicateAccount])
        let blank = ExtensionAccount(issuerID: "", consumerID: "c", cards: [])
        #expect(codes(F.configuration([], more: [blank])) == [.extensionConfigurationInvalidAccount])
    }

    @Test func cardFieldsAreChecked() {
        func cardCodes(_ change: (inout WalletCard) -> Void) -> [ProvisioError.Code] {
            var card = F.extensionCard(1)
            change(&card)
            return card.problems().map(\.code)
        }
        #expect(cardCodes { _ in } == [])
        #expect(cardCodes { $0.title = "  " } == [.extensionCardEmptyTitle])
        for last4 in ["123", "12345", "12a4", "١٢٣٤", ""] {
            #expect(cardCodes { $0.last4 = last4 } == [.extensionCardInvalidLast4])
        }
        #expect(cardCodes { $0.id = "" } == [.extensionCardInvalid])
        #expect(cardCodes { $0.primaryAccountIdentifier = "" } == [.extensionCardInvalid])
        for art in ["", "../art.png", "dir/art.png", ".."] {
            #expect(cardCodes { $0.artReference = art } == [.extensionCardInvalidArtReference])
        }
        #expect(cardCodes { $0.cardholderName = "Jane\u{7}" } == [.invalidCardholderName])
        #expect(cardCodes { $0.cardholderName = nil } == [])
        #expect(
            cardCodes {
                $0.title = ""; $0.last4 = "1"
            } == [.extensionCardEmptyTitle, .extensionCardInvalidLast4])
    }

    @Test func stableCodes() {
        #expect(ProvisioError.Code.extensionConfigurationDuplicateCard.rawValue == "extension_configuration_duplicate_card")
        #expect(ProvisioError.Code.extensionCardEmptyTitle.rawValue == "extension_card_empty_title")
        #expect(ProvisioError.Code.extensionCardInvalidLast4.rawValue == "extension_card_invalid_last4")
        #expect(
            ProvisioError.Code.extensionConfigurationUnsupportedVersion.rawValue == "extension_configuration_unsupported_version")
    }

    @Test func sessionValidityAndCoverage() throws {
        let session = F.session(expiresIn: 60)
        #expect(session.isValid(at: F.now))
        #expect(session.isValid(at: F.now.addingTimeInterval(59)))
        #expect(!session.isValid(at: F.now.addingTimeInterval(60)))
        #expect(session.authorizes(F.account, at: F.now))
        #expect(!session.authorizes(ExtensionAccount.ID(issuerID: "acme", consumerID: "cust_2"), at: F.now))
        let configuration = F.configuration([F.extensionCard(1)])
        #expect(session.authorizes(configuration, at: F.now))
        let withOther = F.configuration(
            [F.extensionCard(1)], more: [ExtensionAccount(issuerID: "beta", consumerID: "c", cards: [F.extensionCard(2)])])
        #expect(!session.authorizes(withOther, at: F.now))
        let emptyOther = F.configuration(
            [F.extensionCard(1)], more: [ExtensionAccount(issuerID: "beta", consumerID: "c", cards: [])])
        #expect(session.authorizes(emptyOther, at: F.now))
        #expect(try ExtensionSession.decode(from: session.encoded()) == session)
        let error = #expect(throws: ProvisioError.self) { try ExtensionSession.decode(from: Data("{}".utf8)) }
        #expect(error?.code == .extensionSessionUnreadable)
    }
}
