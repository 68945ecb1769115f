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

extension ProvisioError.Code {
    public static let operatorRoleInsufficient = Self("operator_role_insufficient", status: .forbidden)
    public static let operatorNotFound = Self("operator_not_found", status: .notFound)
    public static let operatorExists = Self("operator_exists", status: .conflict)
    public static let signInFailed = Self("sign_in_failed", status: .unauthorized)
    public static let signInLocked = Self("sign_in_locked", status: .tooManyRequests)
    /// Too many attempts from the client's address or on the account (tenant and email).
    public static let signInLimited = Self("sign_in_limited", status: .tooManyRequests)
    /// The password hashing executor's queue is full.
    public static let signInBusy = Self("sign_in_busy", status: .tooManyRequests)
    public static let consoleSessionInvalid = Self("console_session_invalid", status: .unauthorized)
    public static let csrfTokenInvalid = Self("csrf_token_invalid", status: .forbidden)
    public static let weakPassword = Self("weak_password", status: .badRequest)
}
