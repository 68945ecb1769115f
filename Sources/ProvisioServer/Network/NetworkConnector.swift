import Foundation
import ProvisioCore

/// What Provisio asks a card network to do to a token on the issuer's behalf.
public enum NetworkCommand: Sendable, Equatable {
    case suspend
    case resume
    case delete
    /// Activates a token pending verification; the issuer verified the cardholder itself
    /// (`customer_service`).
    case activate(method: String)
    /// The issuer reissued the card behind the token: a new expiry, name or art.
    case updateCardDetails(CardDetails)
}

/// The network's answer: the token's state on its side after the command.
public struct NetworkCommandAnswer: Sendable, Equatable {
    public var networkTokenRef: String
    public var state: String

    public init(networkTokenRef: String, state: String) {
        self.networkTokenRef = networkTokenRef
        self.state = state
    }
}

/// Provisio's port to a card network's token service. An issuer's change reaches the network
/// first; Provisio records it only once the network has made it, so the two never disagree
/// because of a network that was down.
public protocol NetworkConnector: Sendable {
    func send(_ command: NetworkCommand, networkTokenRef: String, reasonCode: String?) async throws -> NetworkCommandAnswer
}

extension ProvisioError.Code {
    /// No connector for this tenant and none server-wide.
    public static let networkConnectorNotConfigured = Self("network_connector_not_configured", status: .serviceUnavailable)
    /// The network could not be reached, timed out or failed (5xx).
    public static let networkUnavailable = Self("network_unavailable", status: .badGateway)
    /// The network refused the command (its own code is in the message).
    public static let networkRefused = Self("network_refused", status: .conflict)
    /// The network refused Provisio's credentials.
    public static let networkCredentialsRejected = Self("network_credentials_rejected", status: .badGateway)
    /// The network answered something that is not its token JSON.
    public static let networkAnswerMalformed = Self("network_answer_malformed", status: .badGateway)
}
