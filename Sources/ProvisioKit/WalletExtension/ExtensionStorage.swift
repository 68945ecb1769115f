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

extension ProvisioError.Code {
    /// The App Group is not in the target's entitlements (the commonest reason an issuer's app
    /// never shows up in Wallet), or its container cannot be used.
    public static let appGroupUnavailable = Self("app_group_unavailable", status: .badRequest)
    /// The shared keychain group is not in the target's entitlements or refused the item.
    public static let keychainGroupUnavailable = Self("keychain_group_unavailable", status: .badRequest)
    /// The extension's Info.plist lacks the `ProvisioExtension` dictionary.
    public static let extensionNotConfigured = Self("extension_not_configured", status: .badRequest)
}
