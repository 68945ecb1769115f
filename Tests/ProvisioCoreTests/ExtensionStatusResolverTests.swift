import Foundation
import Testing

@testable import ProvisioCore

@Suite struct ExtensionStatusResolverTests {
    typealias F = WalletFixtures
    let configuration = F.configuration([F.extensionCard(1), F.extensionCard(2)])

    func status(
        _ configuration: ExtensionConfiguration?, session: ExtensionSession? = F.session(),
        library: PassLibrarySnapshot = F.library(),
        ledger: PendingAddLedger = PendingAddLedger()
    ) -> ExtensionStatus {
        ExtensionStatusResolver.status(
            configuration: configuration, session: session, library: library, ledger: ledger, now: F.now)
    }

    @Test func signedInWithCardsToAdd() {
        #expect(
            status(configuration)
                == ExtensionStatus(requiresAuthentication: false, passEntriesAvailable: true, remotePassEntriesAvailable: true))
    }

    @Test func noConfigurationMeansNothingAvailable() {
        #expect(
            status(nil)
                == ExtensionStatus(requiresAuthentication: false, passEntriesAvailable: false, remotePassEntriesAvailable: false))
        #expect(status(nil, session: nil).requiresAuthentication)
        #expect(!status(F.configuration([])).passEntriesAvailable)
    }

    @Test func anExpiredOrMissingSessionAsksForSignInButKeepsEntries() {
        for session in [F.session(expiresIn: -1), F.session(expiresIn: 0), nil] {
            #expect(
                status(configuration, session: session)
                    == ExtensionStatus(requiresAuthentication: true, passEntriesAvailable: true, remotePassEntriesAvailable: true)
            )
        }
    }

    @Test func aSessionForAnotherConsumerAsksForSignIn() {
        let other = F.session(accounts: [ExtensionAccount.ID(issuerID: "acme", consumerID: "cust_2")])
        #expect(status(configuration, session: other).requiresAuthentication)
    }

    @Test func availabilityFollowsEachDevice() {
        let onPhone = F.library([F.pass(F.card(1)), F.pass(F.card(2))])
        #expect(
            status(configuration, library: onPhone)
                == ExtensionStatus(requiresAuthentication: false, passEntriesAvailable: false, remotePassEntriesAvailable: true))
        let noWatch = status(configuration, library: F.library(watchPaired: false))
        #expect(noWatch.passEntriesAvailable && !noWatch.remotePassEntriesAvailable)
        let cannotAdd = status(configuration, library: F.library(canAdd: false))
        #expect(!cannotAdd.passEntriesAvailable && !cannotAdd.remotePassEntriesAvailable)
    }

    @Test func aPendingAddCountsAsUnavailable() {
        let single = F.configuration([F.extensionCard(1)])
        let ledger = PendingAddLedger().recording(PendingAdd(card: F.card(1), device: .phone, startedAt: F.now))
        let pending = status(single, ledger: ledger)
        #expect(!pending.passEntriesAvailable && pending.remotePassEntriesAvailable)
    }

    @Test func twoHundredCardsAgreeWithTheSelector() {
        let cards = (1...200).map { F.extensionCard($0) }
        let configuration = F.configuration(cards)
        // Every card on the iPhone, all but the last on the Watch.
        let passes = (1...200).map { F.pass(F.card($0), on: .phone) } + (1...199).map { F.pass(F.card($0), on: .watch) }
        let library = F.library(passes)
        let result = status(configuration, library: library)
        #expect(!result.passEntriesAvailable && result.remotePassEntriesAvailable)
        let selector = PassEntrySelector(configuration: configuration, library: library, now: F.now)
        #expect(selector.passEntries.isEmpty)
        #expect(selector.remotePassEntries.map(\.card.id) == ["card_200"])
    }
}
