/// The token state machine, pure: given a state and an event it returns the transition and the
/// webhook event to emit, or refuses with `token_invalid_transition`. No I/O; the server stores
/// the result and queues the webhook.
public enum TokenLifecycle {
    public struct Transition: Hashable, Sendable {
        public let from: TokenState
        public let to: TokenState
        /// The webhook event type this transition publishes (`token.activated`, …).
        public let webhookEvent: String
    }

    public static func apply(_ event: TokenEvent, to state: TokenState) throws -> Transition {
        switch (state, event) {
        case (.requested, .decided(.approve)):
            return Transition(from: state, to: .active, webhookEvent: "token.activated")
        case (.requested, .decided(.requireVerification)):
            return Transition(from: state, to: .pendingVerification, webhookEvent: "token.updated")
        case (.requested, .decided(.decline)):
            return Transition(from: state, to: .declined, webhookEvent: "provisioning.declined")
        case (.pendingVerification, .verified):
            return Transition(from: state, to: .active, webhookEvent: "token.activated")
        case (.active, .suspend):
            return Transition(from: state, to: .suspended, webhookEvent: "token.suspended")
        case (.suspended, .resume):
            return Transition(from: state, to: .active, webhookEvent: "token.resumed")
        case (.pendingVerification, .delete), (.active, .delete), (.suspended, .delete):
            return Transition(from: state, to: .deleted, webhookEvent: "token.deleted")
        default:
            throw ProvisioError(
                .tokenInvalidTransition, "A token that is \(state.rawValue) cannot \(describe(event)).")
        }
    }

    static func describe(_ event: TokenEvent) -> String {
        switch event {
        case .decided: "receive a provisioning decision"
        case .verified: "be verified"
        case .suspend: "be suspended"
        case .resume: "be resumed"
        case .delete: "be deleted"
        }
    }
}
