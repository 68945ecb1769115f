import ProvisioCore

/// The card status changes the API allows: each from the statuses it may leave, to its own.
public enum CardStatusChange: Sendable {
    /// From active or locked; final.
    case close
    /// From active.
    case lock
    /// From locked.
    case unlock

    var from: [CardStatus] {
        switch self {
        case .close: [.active, .locked]
        case .lock: [.active]
        case .unlock: [.locked]
        }
    }

    var to: CardStatus {
        switch self {
        case .close: .closed
        case .lock: .locked
        case .unlock: .active
        }
    }

    /// The audit line's action.
    var auditAction: String {
        switch self {
        case .close: "card.closed"
        case .lock: "card.locked"
        case .unlock: "card.unlocked"
        }
    }
}
