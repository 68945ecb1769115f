import Foundation
import Testing

@testable import ProvisioCore

@Suite struct PassEntrySelectorTests {
    typealias F = WalletFixtures

    func ids(_ entries: [PassEntry]) -> [String] { entries.map(\.card.id) }

    @Test func entriesExcludeCardsAlreadyOnThatDeviceInConfigurationOrder() {
        let other = ExtensionAccount(issuerID: "beta", consumerID: "cust_9", cards: [F.extensionCard(9), F.extensionCard(4)])
        let configuration = F.configuration([F.extensionCard(3), F.extensionCard(1), F.extensionCard(2)], more: [other])
        let library = F.library([
            F.pass(F.card(1), on: .phone), F.pass(F.card(9), on: .watch), F.pass(F.card(2), state: .suspended),
        ])
        let selector = PassEntrySelector(configuration: configuration, library: library, now: F.now)
        #expect(ids(selector.passEntries) == ["card_3", "card_9", "card_4"])
        #expect(ids(selector.remotePassEntries) == ["card_3", "card_1", "card_2", "card_4"])
        #expect(selector.passEntries.map(\.identifier.rawValue) == ["phone:card_3", "phone:card_9", "phone:card_4"])
        #expect(selector.passEntries[1].accountID == other.id)
        #expect(selector.remotePassEntries.allSatisfy { $0.device == .watch })
    }

    @Test func aDeactivatedPassOffersTheCardAgain() {
        let selector = PassEntrySelector(
            configuration: F.configuration([F.extensionCard(1)]), library: F.library([F.pass(F.card(1), state: .deactivated)]),
            now: F.now)
        #expect(ids(selector.passEntries) == ["card_1"])
    }

    @Test func sharedLastFourHidesNeitherCard() {
        let configuration = F.configuration([F.extensionCard(1), F.extensionCard(2, last4: "0001"), F.extensionCard(3)])
        let library = F.library([F.pass(nil, suffix: "0001"), F.pass(nil, suffix: "0003")])
        let selector = PassEntrySelector(configuration: configuration, library: library, now: F.now)
        #expect(ids(selector.passEntries) == ["card_1", "card_2"])  // card 3's last 4 is its own
        #expect(ids(selector.remotePassEntries) == ["card_1", "card_2", "card_3"])
    }

    @Test func noWatchOrNoAddMeansNoEntries() {
        let configuration = F.configuration([F.extensionCard(1)])
        let noWatch = PassEntrySelector(configuration: configuration, library: F.library(watchPaired: false), now: F.now)
        #expect(noWatch.remotePassEntries.isEmpty && !noWatch.hasEntries(for: .watch) && noWatch.hasEntries(for: .phone))
        let cannotAdd = PassEntrySelector(configuration: configuration, library: F.library(canAdd: false), now: F.now)
        #expect(cannotAdd.passEntries.isEmpty && cannotAdd.remotePassEntries.isEmpty)
    }

    @Test func aPendingAddIsHiddenUntilItsPassAppearsThenReconciled() {
        let configuration = F.configuration([F.extensionCard(1), F.extensionCard(2)])
        let ledger = PendingAddLedger().recording(PendingAdd(card: F.card(1), device: .phone, startedAt: F.now))
        let later = F.now.addingTimeInterval(30)

        // Added, pass not there yet: hidden on the iPhone only.
        let before = PassEntrySelector(configuration: configuration, library: F.library(), ledger: ledger, now: later)
        #expect(ids(before.passEntries) == ["card_2"])
        #expect(ids(before.remotePassEntries) == ["card_1", "card_2"])
        #expect(ledger.reconciled(with: F.library(), issuerCards: configuration.cardIdentities, now: later) == ledger)

        // The pass appears (awaiting activation): the record goes, the card stays hidden as already there.
        let arrived = F.library([F.pass(F.card(1), state: .requiresActivation)])
        let reconciled = ledger.reconciled(with: arrived, issuerCards: configuration.cardIdentities, now: later)
        #expect(reconciled.records.isEmpty)
        let after = PassEntrySelector(configuration: configuration, library: arrived, ledger: reconciled, now: later)
        #expect(ids(after.passEntries) == ["card_2"])
    }

    @Test func onlyALivePassAttributedToTheCardReconciles() {
        let cards = [F.card(1), F.card(2, last4: "0001")]
        let ledger = PendingAddLedger().recording(PendingAdd(card: F.card(1), device: .phone, startedAt: F.now))
        let stale = F.library([F.pass(F.card(1), state: .deactivated)])
        #expect(ledger.reconciled(with: stale, issuerCards: cards, now: F.now).records.count == 1)
        let ambiguous = F.library([F.pass(nil, suffix: "0001")])
        #expect(ledger.reconciled(with: ambiguous, issuerCards: cards, now: F.now).records.count == 1)
        let onWatch = F.library([F.pass(F.card(1), on: .watch)])
        #expect(ledger.reconciled(with: onWatch, issuerCards: cards, now: F.now).records.count == 1)
        let unique = F.library([F.pass(nil, suffix: "0001")])
        #expect(ledger.reconciled(with: unique, issuerCards: [F.card(1)], now: F.now).records.isEmpty)
    }

    @Test func aPendingAddExpires() {
        let configuration = F.configuration([F.extensionCard(1)])
        let ledger = PendingAddLedger(expiry: 60).recording(PendingAdd(card: F.card(1), device: .watch, startedAt: F.now))
        func offered(after seconds: TimeInterval) -> Bool {
            PassEntrySelector(
                configuration: configuration, library: F.library(), ledger: ledger, now: F.now.addingTimeInterval(seconds)
            )
            .hasEntries(for: .watch)
        }
        #expect(!offered(after: 0))
        #expect(!offered(after: 59))
        #expect(offered(after: 60))
        #expect(!offered(after: -59))  // the clock moved back a little: still pending
        #expect(offered(after: -60))  // a record far "in the future" cannot hide the card for ever
        #expect(ledger.reconciled(with: F.library(), issuerCards: [F.card(1)], now: F.now.addingTimeInterval(60)).records.isEmpty)
        #expect(PendingAddLedger().expiry == 600)
    }

    @Test func theLedgerKeepsOneRecordPerCardAndDeviceAndRoundTrips() throws {
        let ledger = PendingAddLedger()
            .recording(PendingAdd(card: F.card(1), device: .phone, startedAt: F.now))
            .recording(PendingAdd(card: F.card(1), device: .watch, startedAt: F.now))
            .recording(PendingAdd(card: F.card(1), device: .phone, startedAt: F.now.addingTimeInterval(5)))
        #expect(ledger.records.count == 2)
        #expect(ledger.isPending(primaryAccountIdentifier: "pai_1", on: .phone, at: F.now.addingTimeInterval(604)))
        #expect(try PendingAddLedger.decode(from: ledger.encoded()) == ledger)
        let error = #expect(throws: ProvisioError.self) { try PendingAddLedger.decode(from: Data("[]".utf8)) }
        #expect(error?.code == .pendingAddLedgerUnreadable)
    }

    @Test func entryIdentifiers() {
        #expect(PassEntryIdentifier(rawValue: "watch:card:7") == PassEntryIdentifier(cardID: "card:7", device: .watch))
        #expect(PassEntryIdentifier(cardID: "c1", device: .phone).rawValue == "phone:c1")
        for bad in ["c1", "tablet:c1", "phone:", ":c1", ""] { #expect(PassEntryIdentifier(rawValue: bad) == nil) }
    }

    @Test func entriesCarryTheAddRequestConfiguration() {
        let configuration = F.configuration([F.extensionCard(1, network: .unknown), F.extensionCard(2, network: .amex)])
        let entries = PassEntrySelector(configuration: configuration, library: F.library(), now: F.now).passEntries
        #expect(
            entries[0].request
                == AddPassRequestConfiguration(
                    encryptionScheme: .eccV2, cardholderName: "Jane Appleseed", primaryAccountSuffix: "0001",
                    localizedDescription: "Acme Card 1", primaryAccountIdentifier: "pai_1", paymentNetwork: nil))
        #expect(entries[1].request.paymentNetwork == .amex)
        #expect(entries[0].title == "Acme Card 1" && entries[0].artReference == "art_1.png")
    }

    @Test func twoHundredCards() {
        let configuration = F.configuration((1...200).map { F.extensionCard($0) })
        let passes = stride(from: 2, through: 200, by: 2).map { F.pass(F.card($0)) }
        let selector = PassEntrySelector(configuration: configuration, library: F.library(passes), now: F.now)
        #expect(ids(selector.passEntries) == stride(from: 1, through: 199, by: 2).map { "card_\($0)" })
        #expect(selector.remotePassEntries.count == 200)
    }
}
