import Foundation
import HTTPTypes
import Hummingbird
import ProvisioCore

/// A token's page (state, decision, device, history, audit, the card's attempts) and the
/// actions support takes on it, each with a reason, through the same service and network
/// connector as the API.
extension ConsoleRoutes {
    /// What support may do to a token in each state, as (form value, label, event).
    static func actions(for state: TokenState) -> [(value: String, label: String, event: TokenEvent)] {
        switch state {
        case .active:
            [("suspend", "Suspend", .suspend(by: .issuer)), ("delete", "Delete", .delete(by: .issuer))]
        case .suspended:
            [("resume", "Resume", .resume(by: .issuer)), ("delete", "Delete", .delete(by: .issuer))]
        case .pendingVerification:
            [
                ("activate", "Activate (customer service verified the cardholder)", .verified(.customerService)),
                ("delete", "Delete", .delete(by: .issuer)),
            ]
        case .requested, .declined, .deleted:
            []
        }
    }

    /// What a finished action says on the page it returns to (a fixed text, never the request's).
    static let notices = [
        "suspend": "The token is suspended at the network.", "resume": "The token is active again at the network.",
        "delete": "The token is deleted at the network.", "activate": "The token is activated at the network.",
    ]

    func tokenPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let signedIn = try Self.signedIn(context)
        let token = try await services.tokens.token(id: try Self.pathID(context), tenantID: signedIn.tenantID)
        let card = try? await services.cards.card(id: token.cardID, tenantID: signedIn.tenantID)
        let events = try await services.tokens.events(of: token)
        let audit = try await services.audit.events(
            tenantID: signedIn.tenantID, filter: AuditFilter(targetType: "token", targetID: token.id), cursor: nil, limit: 100)
        let attempts = try await services.provisioning.attempts(
            cardID: token.cardID, tenantID: signedIn.tenantID, cursor: nil, limit: 100)
        var values = Self.base("Wallet token \(token.id)", signedIn)
        values["token"] = ConsoleViews.token(token, card: card)
        values["events"] = events.map(ConsoleViews.event)
        values["auditEvents"] = audit.items.map(ConsoleViews.audit)
        values["hasAttempts"] = !attempts.items.isEmpty
        values["attempts"] = attempts.items.map(ConsoleViews.attempt)
        let actions = Self.actions(for: token.state)
        values["canAct"] = signedIn.role >= .support && !actions.isEmpty
        values["actions"] = actions.map { ["value": $0.value, "label": $0.label] }
        if let done = try Self.query(request)["done"], let notice = Self.notices[done] { values["notice"] = notice }
        return pages.page("token", values)
    }

    func tokenAction(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let (form, signedIn) = try await Self.form(request, context, role: .support, to: "act on tokens")
        let token = try await services.tokens.token(id: try Self.pathID(context), tenantID: signedIn.tenantID)
        let reason = try form.reason()
        let requested = try form.require("action")
        guard let action = Self.actions(for: token.state).first(where: { $0.value == requested }) else {
            throw ProvisioError(
                .tokenInvalidTransition, "A token that is \(token.state.rawValue) cannot take the action \(requested).")
        }
        _ = try await Self.withReason(reason) {
            try await services.tokens.issuerChange(action.event, to: token, reasonCode: "support_console")
        }
        return ConsolePages.redirect("/console/tokens/\(token.id)?done=\(action.value)")
    }
}
