import Foundation
import ProvisioCore

/// Provisio's port to a card network's token service. An issuer's change reaches the network
/// first; Provisio records it only once the network has made it, so the two never disagree
/// because of a network that was down.
///
/// Each dialect a network speaks has its conformance (`ProvisioDialectConnector`), which turns a
/// command into the dialect's request and its answer back, and throws only the codes below.
public protocol NetworkConnector: Sendable {
    /// The wire this connector speaks.
    var dialect: NetworkDialect { get }

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
