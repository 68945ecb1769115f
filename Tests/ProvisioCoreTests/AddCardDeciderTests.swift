import Testing

@testable import ProvisioCore

@Suite struct AddCardDeciderTests {
    typealias F = WalletFixtures
    let card = F.card(1)
    let sibling = F.card(2, last4: "0001")

    func decide(_ passes: [WalletPassSnapshot], cards: [CardIdentity]? = nil, watchPaired: Bool = true, canAdd: Bool = true)
        -> AddCardDecision
    {
        AddCardDecider(library: F.library(passes, watchPaired: watchPaired, canAdd: canAdd), issuerCards: cards ?? [card])
            .decision(for: card)
    }

    @Test func aNewCardCanGoToBothDevices() {
        let decision = decide([])
        #expect(decision.phone.reason == .notOnDevice && decision.watch.reason == .notOnDevice)
        #expect(decision.showsAddButton)
        #expect(decision.addableDevices == [.phone, .watch])
        #expect(decision[.watch].status == .notAdded)
    }

    @Test func alreadyOnOneDeviceLeavesTheOther() {
        let onPhone = decide([F.pass(card, on: .phone)])
        #expect(onPhone.phone.reason == .alreadyOnThisDevice && !onPhone.phone.canAdd)
        #expect(onPhone.watch.canAdd && onPhone.showsAddButton)
        let onWatch = decide([F.pass(card, on: .watch)])
        #expect(onWatch.watch.reason == .alreadyOnWatch && onWatch.phone.canAdd)
        let onBoth = decide([F.pass(card, on: .phone), F.pass(card, on: .watch)])
        #expect(!onBoth.showsAddButton && onBoth.addableDevices.isEmpty)
    }

    @Test func livePassStatesBlockTheAdd() {
        let expected: [PassActivationState: AddCardReason] = [
            .requiresActivation: .requiresActivation, .suspended: .suspended, .activating: .activating,
        ]
        for (state, reason) in expected {
            let decision = decide([F.pass(card, state: state)])
            #expect(decision.phone.reason == reason && !decision.phone.canAdd)
        }
        #expect(decide([F.pass(card, state: nil)]).phone.reason == .unknownPassState)
        #expect(decide([F.pass(card, state: .activated), F.pass(card, state: .suspended)]).phone.reason == .unknownPassState)
    }

    @Test func onlyADeactivatedPassAllowsAddingAgain() {
        let decision = decide([F.pass(card, state: .deactivated)])
        #expect(decision.phone.reason == .onlyDeactivatedPass && decision.phone.canAdd)
        #expect(decide([F.pass(card, state: .deactivated)], canAdd: false).phone.reason == .unsupportedDevice)
    }

    @Test func twoCardsSharingALastFourNeverHideEachOther() {
        let anonymous = F.pass(nil, suffix: "0001", state: .activated)
        let decider = AddCardDecider(library: F.library([anonymous]), issuerCards: [card, sibling])
        for each in [card, sibling] {
            let decision = decider.decision(for: each)
            #expect(decision.phone.reason == .ambiguousLastFour && decision.phone.canAdd)
            #expect(decision.phone.status == .unknown)
            #expect(decision.watch.reason == .notOnDevice)
            #expect(decision.showsAddButton)
        }
    }

    @Test func aPassWithoutPrimaryAccountIdentifierHidesTheOnlyCardWithItsLastFour() {
        let decider = AddCardDecider(library: F.library([F.pass(nil, suffix: "0001")]), issuerCards: [card, F.card(3)])
        #expect(decider.decision(for: card).phone.reason == .alreadyOnThisDevice)
        #expect(decider.decision(for: F.card(3)).phone.reason == .notOnDevice)
    }

    @Test func watchNotPaired() {
        let decision = decide([], watchPaired: false)
        #expect(decision.watch.reason == .noPairedWatch && !decision.watch.canAdd)
        #expect(decision.phone.canAdd && decision.showsAddButton)
        #expect(decide([], watchPaired: false, canAdd: false).watch.reason == .noPairedWatch)
    }

    @Test func deviceCannotAddPaymentPasses() {
        let decision = decide([], canAdd: false)
        #expect(decision.phone.reason == .unsupportedDevice && decision.watch.reason == .unsupportedDevice)
        #expect(!decision.showsAddButton)
        #expect(decision.phone.status == .unavailable)
        // Already there is the more useful reason, and still no add.
        #expect(decide([F.pass(card)], canAdd: false).phone.reason == .alreadyOnThisDevice)
        #expect(decide([F.pass(nil, suffix: "0001")], cards: [card, sibling], canAdd: false).phone.reason == .unsupportedDevice)
    }

    @Test func reasonsSayWhetherTheyAllowTheAdd() {
        let allowing = AddCardReason.allCases.filter(\.allowsAdd)
        #expect(allowing == [.notOnDevice, .onlyDeactivatedPass, .ambiguousLastFour])
    }
}
