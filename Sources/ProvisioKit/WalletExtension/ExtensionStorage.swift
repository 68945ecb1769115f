import Foundation
import ProvisioCore

/// Where the app and its Wallet extensions share non-sensitive data: the extension
/// configuration, the pending-add ledger and card art. Never tokens (see `ExtensionSessionStore`).
public protocol ExtensionStorage: Sendable {
    /// The configuration the app wrote, or nil when it wrote none yet.
    func configuration() throws -> ExtensionConfiguration?
    func save(_ configuration: ExtensionConfiguration) throws
    func ledger() throws -> PendingAddLedger
    func save(_ ledger: PendingAddLedger) throws
    /// The card art the configuration names (`WalletCard.artReference`), nil when missing.
    func art(named reference: String) throws -> Data?
    func saveArt(_ data: Data, named reference: String) throws
}
