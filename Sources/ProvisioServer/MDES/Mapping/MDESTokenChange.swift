import ProvisioCore

/// A token change MDES reports (`notifyServiceActivated`, `notifyTokenUpdated`) and the event it
/// is for Provisio's state machine in a given state (docs/mdes.md, "Token states"). Pure.
struct MDESTokenChange: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// `notifyServiceActivated`, or `STATUS_UPDATE` `ACTIVE`.
        case active
        /// `STATUS_UPDATE` `SUSPENDED`, by the issuer alone or by anyone else too.
        case suspended(byIssuerOnly: Bool)
        case deactivated
        /// `INACTIVE` and statuses Provisio does not know: recorded only.
        case other
    }

    var kind: Kind
    /// Stored as the event's reason: MDES's status and suspenders, upper-case words only.
    var reason: String
    var networkState: String?

    /// `STATUS_UPDATE` with `status` and `suspendedBy` as MDES sent them.
    static func statusUpdate(status: String?, suspendedBy: [String]?) -> MDESTokenChange {
        let status = status.map(word) ?? "NONE"
        let suspenders = (suspendedBy ?? []).map(word)
        let reason = ([status] + suspenders).joined(separator: ":")
        let kind: Kind
        switch status {
        case "ACTIVE": kind = .active
        case "SUSPENDED": kind = .suspended(byIssuerOnly: !suspenders.isEmpty && suspenders.allSatisfy { $0 == "ISSUER" })
        case "DEACTIVATED": kind = .deactivated
        default: kind = .other
        }
        return MDESTokenChange(kind: kind, reason: String(reason.prefix(128)), networkState: status)
    }

    static let serviceActivated = MDESTokenChange(kind: .active, reason: "SERVICE_ACTIVATED", networkState: "ACTIVE")

    /// The event for a token in `state`, or nil when the change is nothing to do (already so,
    /// or not a transition the state machine has).
    func event(for state: TokenState) -> TokenEvent? {
        switch (kind, state) {
        // The network activated a pending token: Provisio's dialect calls this `activated`.
        case (.active, .pendingVerification): .verified(.tav)
        case (.active, .suspended): .resume(by: .network)
        case (.suspended(let byIssuer), .active): .suspend(by: byIssuer ? .issuer : .network)
        case (.deactivated, .pendingVerification), (.deactivated, .active), (.deactivated, .suspended):
            .delete(by: .network)
        default: nil
        }
    }

    var auditName: String {
        switch kind {
        case .active: "status_active"
        case .suspended: "status_suspended"
        case .deactivated: "status_deactivated"
        case .other: "status_other"
        }
    }

    /// An open value from MDES as stored: upper-case letters and `_` only, at most 32, else `OTHER`.
    static func word(_ value: String) -> String {
        guard (1...32).contains(value.count), value.allSatisfy({ ("A"..."Z").contains($0) || $0 == "_" }) else {
            return "OTHER"
        }
        return value
    }
}
