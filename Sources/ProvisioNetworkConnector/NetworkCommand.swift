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
    /// The issuer replaced the card behind the token with a new number (a lost or stolen card):
    /// the token is funded by `pan` from now on, under `expiry`. Described, it shows only the
    /// last four digits (`PrimaryAccountNumber` masks itself); the connector sends the number
    /// only encrypted for the network.
    case replaceFundingAccount(pan: PrimaryAccountNumber, expiry: CardExpiry)

    /// The command in a sentence of an error message ("the suspend command").
    public var action: String {
        switch self {
        case .suspend: "suspend"
        case .resume: "resume"
        case .delete: "delete"
        case .activate: "activate"
        case .updateCardDetails: "card details"
        case .replaceFundingAccount: "funding account"
        }
    }

    /// The reissue's new details; nil for every other command.
    public var cardDetails: CardDetails? {
        guard case .updateCardDetails(let change) = self else { return nil }
        return change
    }

    /// The replacement's new number and expiry; nil for every other command.
    public var replacement: (pan: PrimaryAccountNumber, expiry: CardExpiry)? {
        guard case .replaceFundingAccount(let pan, let expiry) = self else { return nil }
        return (pan, expiry)
    }
}
