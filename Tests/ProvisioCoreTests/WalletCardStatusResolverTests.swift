import Foundation
import Testing

@testable import ProvisioCore

@Suite struct WalletCardStatusResolverTests {
    typealias F = WalletFixtures
    let card = F.card(1)
    let sibling = F.card(2, last4: "0001")  // shares card 1's last 4

    @Test func eachPassStateIsTheStatusOnItsOwnDevice() {
        for state in PassActivationState.allCases {
            let resolver = WalletCardStatusResolver(
                library: F.library([F.pass(card, state: state, on: .watch)]), issuerCards: [card])
            #expect(resolver.status(of: card, on: .watch) == WalletCardStatus(state))
            #expect(resolver.status(of: card, on: .phone) == .notAdded)
        }
        #expect(WalletCardStatus(.requiresActivation) == .requiresActivation)
    }

    @Test func aPassWithoutPrimaryAccountIdentifierMatchesByAUniqueLastFour() {
        let anonymous = F.pass(nil, suffix: "0001", state: .suspended)
        let other = F.card(3)
        let resolver = WalletCardStatusResolver(library: F.library([anonymous]), issuerCards: [card, other])
        #expect(resolver.status(of: card, on: .phone) == .suspended)
        #expect(resolver.status(primaryAccountIdentifier: card.primaryAccountIdentifier, on: .phone) == .suspended)
        #expect(resolver.status(of: other, on: .phone) == .notAdded)
        // A pass whose primary account identifier is another card's never falls back to the last 4.
        let foreign = F.pass(F.card(9, last4: "0001"), state: .activated)
        #expect(
            WalletCardStatusResolver(library: F.library([foreign]), issuerCards: [card]).status(of: card, on: .phone) == .notAdded
        )
    }

    @Test func aLastFourSharedByTwoCardsIsUnknownForBoth() {
        let resolver = WalletCardStatusResolver(
            library: F.library([F.pass(nil, suffix: "0001", state: .activated)]), issuerCards: [card, sibling])
        #expect(resolver.status(of: card, on: .phone) == .unknown)
        #expect(resolver.status(of: sibling, on: .phone) == .unknown)
        // The exact match still wins for the card that has one.
        let exact = WalletCardStatusResolver(
            library: F.library([F.pass(nil, suffix: "0001"), F.pass(card, state: .requiresActivation)]),
            issuerCards: [card, sibling])
        #expect(exact.status(of: card, on: .phone) == .requiresActivation)
        #expect(exact.status(of: sibling, on: .phone) == .unknown)
    }

    @Test func theGuardCountsTheCardAskedAboutEvenWhenNotListed() {
        let resolver = WalletCardStatusResolver(library: F.library([F.pass(nil, suffix: "0001")]), issuerCards: [sibling])
        #expect(resolver.status(of: card, on: .phone) == .unknown)
    }

    @Test func suffixesAreComparedByTheirLastFourDigits() {
        let resolver = WalletCardStatusResolver(library: F.library([F.pass(nil, suffix: "•••• 0001")]), issuerCards: [card])
        #expect(resolver.status(of: card, on: .phone) == .activated)
        #expect(CardIdentity.lastFourKey("12") == nil)
    }

    @Test func unavailableWhenTheDeviceCannotTakePasses() {
        let cannotAdd = WalletCardStatusResolver(library: F.library(canAdd: false), issuerCards: [card])
        #expect(cannotAdd.status(of: card, on: .phone) == .unavailable)
        #expect(cannotAdd.status(of: card, on: .watch) == .unavailable)
        let noWatch = WalletCardStatusResolver(library: F.library(watchPaired: false), issuerCards: [card])
        #expect(noWatch.status(of: card, on: .phone) == .notAdded)
        #expect(noWatch.status(of: card, on: .watch) == .unavailable)
        // A pass already there is reported by its state, whatever the device can add.
        let present = WalletCardStatusResolver(library: F.library([F.pass(card)], canAdd: false), issuerCards: [card])
        #expect(present.status(of: card, on: .phone) == .activated)
    }

    @Test func severalPassesOfOneCardOnOneDevice() {
        func status(_ states: [PassActivationState?]) -> WalletCardStatus {
            let passes = states.map { F.pass(card, state: $0) }
            return WalletCardStatusResolver(library: F.library(passes), issuerCards: [card]).status(of: card, on: .phone)
        }
        #expect(status([.deactivated, .activated]) == .activated)
        #expect(status([.deactivated, .deactivated]) == .deactivated)
        #expect(status([.activated, .suspended]) == .unknown)
        #expect(status([nil]) == .unknown)
        #expect(status([.activated, nil]) == .unknown)
    }

    @Test func byDeviceAccountIdentifier() {
        let library = F.library([F.pass(card, state: .activating, on: .watch, deviceAccount: "dai_w")])
        let resolver = WalletCardStatusResolver(library: library, issuerCards: [card])
        #expect(resolver.status(deviceAccountIdentifier: "dai_w", on: .watch) == .activating)
        #expect(resolver.status(deviceAccountIdentifier: "dai_w", on: .phone) == .notAdded)
        #expect(resolver.status(deviceAccountIdentifier: "dai_other", on: .watch) == .notAdded)
    }

    @Test func aCardTheResolverDoesNotKnowMatchesOnlyByPrimaryAccountIdentifier() {
        let library = F.library([F.pass(nil, suffix: "0042"), F.pass(F.card(7), state: .suspended)])
        let resolver = WalletCardStatusResolver(library: library, issuerCards: [])
        #expect(resolver.status(primaryAccountIdentifier: "pai_42", on: .phone) == .notAdded)
        #expect(resolver.status(primaryAccountIdentifier: "pai_7", on: .phone) == .suspended)
    }

    @Test func libraryLookups() throws {
        let onWatch = F.pass(card, on: .watch, serial: "S1")
        let onPhone = F.pass(card, on: .phone, serial: "S1")
        let library = F.library([onWatch, onPhone, F.pass(nil, suffix: "0001", serial: "S2")])
        #expect(library.pass(serialNumber: "S1") == onPhone)
        #expect(library.passes(on: .watch) == [onWatch])
        #expect(library.passes(primaryAccountIdentifier: "pai_1", on: .phone) == [onPhone])
        #expect(library.passesWithoutPrimaryAccountIdentifier(last4: "0001", on: .phone).map(\.serialNumber) == ["S2"])
        let link = try WalletDeepLink(
            url: URL(string: "app://verify?passTypeIdentifier=paymentpass.com.apple&serialNumber=S1&action=verify")!)
        #expect(library.pass(for: link) == onPhone)
        #expect(F.library([onWatch]).pass(for: link) == onWatch)
        #expect(
            WalletPassSnapshot(
                serialNumber: "x", primaryAccountIdentifier: "", primaryAccountNumberSuffix: "1", deviceAccountIdentifier: "d",
                activationState: .activated, device: .phone
            ).primaryAccountIdentifier == nil)
    }
}
