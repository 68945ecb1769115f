import Testing

@testable import ProvisioCore

@Suite struct TokenLifecycleTests {
    static let allEvents: [TokenEvent] = [
        .decided(.approve), .decided(.requireVerification), .decided(.decline), .verified(.tav), .verified(.otp),
        .verified(.customerService), .suspend(by: .issuer), .suspend(by: .network), .resume(by: .issuer),
        .resume(by: .network), .delete(by: .issuer), .delete(by: .network),
    ]

    /// The whole table: every state × every event, allowed or refused.
    static let allowed: [TokenState: [TokenEvent: (TokenState, String)]] = [
        .requested: [
            .decided(.approve): (.active, "token.activated"),
            .decided(.requireVerification): (.pendingVerification, "token.updated"),
            .decided(.decline): (.declined, "provisioning.declined"),
        ],
        .pendingVerification: [
            .verified(.tav): (.active, "token.activated"), .verified(.otp): (.active, "token.activated"),
            .verified(.customerService): (.active, "token.activated"),
            .delete(by: .issuer): (.deleted, "token.deleted"), .delete(by: .network): (.deleted, "token.deleted"),
        ],
        .active: [
            .suspend(by: .issuer): (.suspended, "token.suspended"), .suspend(by: .network): (.suspended, "token.suspended"),
            .delete(by: .issuer): (.deleted, "token.deleted"), .delete(by: .network): (.deleted, "token.deleted"),
        ],
        .suspended: [
            .resume(by: .issuer): (.active, "token.resumed"), .resume(by: .network): (.active, "token.resumed"),
            .delete(by: .issuer): (.deleted, "token.deleted"), .delete(by: .network): (.deleted, "token.deleted"),
        ],
        .deleted: [:],
        .declined: [:],
    ]

    @Test(arguments: TokenState.allCases)
    func everyEventFromEveryState(_ state: TokenState) {
        for event in Self.allEvents {
            if let (to, webhook) = Self.allowed[state]?[event] {
                let transition = try? TokenLifecycle.apply(event, to: state)
                #expect(transition?.to == to, "\(state) + \(event)")
                #expect(transition?.webhookEvent == webhook)
                #expect(transition?.from == state)
            } else {
                let error = #expect(throws: ProvisioError.self) { try TokenLifecycle.apply(event, to: state) }
                #expect(error?.code == .tokenInvalidTransition, "\(state) + \(event)")
            }
        }
    }

    @Test func finalStatesAreFinal() {
        #expect(TokenState.deleted.isFinal && TokenState.declined.isFinal)
        #expect(!TokenState.active.isFinal && !TokenState.suspended.isFinal)
    }
}
