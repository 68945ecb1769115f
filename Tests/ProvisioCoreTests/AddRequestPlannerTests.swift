import Testing

@testable import ProvisioCore

@Suite struct AddRequestPlannerTests {
    typealias F = WalletFixtures
    let configuration = F.configuration([F.extensionCard(1), F.extensionCard(2)])

    func plan(
        _ identifier: String, configuration: ExtensionConfiguration? = nil, session: ExtensionSession? = F.session(),
        library: PassLibrarySnapshot = F.library()
    ) throws -> AddRequestPlan {
        try AddRequestPlanner.plan(
            entryIdentifier: identifier, configuration: configuration ?? self.configuration, session: session, library: library,
            now: F.now)
    }

    func code(_ body: () throws -> AddRequestPlan) -> ProvisioError.Code? {
        (#expect(throws: ProvisioError.self) { _ = try body() })?.code
    }

    @Test func aGoodEntryGivesTheCardAccountAndDevice() throws {
        let plan = try plan("watch:card_2", library: F.library([F.pass(F.card(2), on: .phone)]))
        #expect(plan.card == F.extensionCard(2) && plan.accountID == F.account && plan.device == .watch)
        #expect(plan.pendingAdd(startedAt: F.now) == PendingAdd(card: F.card(2), device: .watch, startedAt: F.now))
    }

    @Test func unknownEntries() {
        #expect(code { try plan("phone:card_404") } == .extensionEntryUnknown)
        #expect(code { try plan("card_1") } == .extensionEntryUnknown)
        #expect(
            code {
                try AddRequestPlanner.plan(
                    entryIdentifier: "phone:card_1", configuration: nil, session: F.session(), library: F.library(), now: F.now)
            } == .extensionEntryUnknown)
    }

    @Test func anExpiredMissingOrForeignSessionRequiresAuthentication() {
        #expect(code { try plan("phone:card_1", session: F.session(expiresIn: -1)) } == .extensionAuthenticationRequired)
        #expect(code { try plan("phone:card_1", session: nil) } == .extensionAuthenticationRequired)
        let foreign = F.session(accounts: [ExtensionAccount.ID(issuerID: "beta", consumerID: "x")])
        #expect(code { try plan("phone:card_1", session: foreign) } == .extensionAuthenticationRequired)
    }

    @Test func aCardAlreadyOnTheDeviceIsRefused() throws {
        for state in [PassActivationState.activated, .requiresActivation, .suspended, .activating] {
            #expect(
                code { try plan("phone:card_1", library: F.library([F.pass(F.card(1), state: state)])) }
                    == .extensionCardAlreadyOnDevice)
        }
        _ = try plan("phone:card_1", library: F.library([F.pass(F.card(1), state: .deactivated)]))
        _ = try plan("phone:card_1", library: F.library([F.pass(F.card(1), on: .watch)]))
    }

    @Test func aDeviceThatCannotTakeThePass() {
        #expect(code { try plan("watch:card_1", library: F.library(watchPaired: false)) } == .extensionDeviceUnavailable)
        #expect(code { try plan("phone:card_1", library: F.library(canAdd: false)) } == .extensionDeviceUnavailable)
    }
}
