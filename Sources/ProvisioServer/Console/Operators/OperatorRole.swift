import ProvisioCore

/// What an operator of the support console may do. Viewers read; support also acts on tokens
/// and replays webhooks; admins also change settings, API keys and operators.
public enum OperatorRole: String, Sendable, CaseIterable, Comparable {
    case viewer
    case support
    case admin

    public init(wire: String) throws {
        guard let role = Self(rawValue: wire) else {
            throw ProvisioError(.invalidParameter, "role must be one of viewer, support, admin.")
        }
        self = role
    }

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .support: 1
        case .admin: 2
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

    /// Throws `operator_role_insufficient` (403) unless this role is at least `required`.
    public func require(_ required: OperatorRole, to action: String) throws {
        guard self >= required else {
            throw ProvisioError(
                .operatorRoleInsufficient, "Your role (\(rawValue)) cannot \(action); it needs \(required.rawValue).")
        }
    }
}
