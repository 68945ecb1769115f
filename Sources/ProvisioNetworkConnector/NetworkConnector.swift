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
