import Foundation
import ProvisioCore

/// What Provisio asks a card network to do to a token on the issuer's behalf, whatever the
/// network's dialect.
public enum NetworkCommand: Sendable, Equatable {
    case suspend
    case resume
    case delete
    /// Activates a token pending verification; the issuer verified the cardholder itself
    /// (`customer_service`).
    case activate(method: String)
    /// The issuer reissued the card behind the token: a new expiry, name or art.
    case updateCardDetails(CardDetails)

    /// The command in a sentence of an error message ("the suspend command").
    public var action: String {
        switch self {
        case .suspend: "suspend"
        case .resume: "resume"
        case .delete: "delete"
        case .activate: "activate"
        case .updateCardDetails: "card details"
        }
    }

    /// The reissue's new details; nil for every other command.
    public var cardDetails: CardDetails? {
        guard case .updateCardDetails(let change) = self else { return nil }
        return change
    }
}
