import Foundation

/// Answers the non-UI extension's `status()` from the cached configuration alone — never the
/// network, since Wallet allows 100 ms and the target is under 1 ms for 200 cards.
///
/// - No configuration: nothing is available (Wallet then does not list the app).
/// - A missing, expired or foreign session (not covering every account with cards):
///   `requiresAuthentication = true`, while availability is still computed from the cache, so
///   the app stays listed and Wallet asks the cardholder to sign in rather than hiding it.
/// - Availability per device is exactly "`PassEntrySelector` would return an entry", so status
///   and entries never disagree.
public enum ExtensionStatusResolver {
    /// The status for Wallet. O(cards + passes), stopping at the first available entry.
    public static func status(
        configuration: ExtensionConfiguration?, session: ExtensionSession?, library: PassLibrarySnapshot,
        ledger: PendingAddLedger = PendingAddLedger(), now: Date
    ) -> ExtensionStatus {
        guard let configuration else {
            return ExtensionStatus(
                requiresAuthentication: !(session?.isValid(at: now) ?? false), passEntriesAvailable: false,
                remotePassEntriesAvailable: false)
        }
        let selector = PassEntrySelector(configuration: configuration, library: library, ledger: ledger, now: now)
        return ExtensionStatus(
            requiresAuthentication: !(session?.authorizes(configuration, at: now) ?? false),
            passEntriesAvailable: selector.hasEntries(for: .phone),
            remotePassEntriesAvailable: selector.hasEntries(for: .watch))
    }
}
