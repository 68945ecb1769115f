import Foundation

/// Chooses the non-UI extension's `passEntries` (iPhone) and `remotePassEntries` (Watch).
///
/// A configured card is offered for a device when `AddCardDecider` allows adding it there (not
/// already on that device, guarded last-4 matching, the device can take passes) and no add of it
/// to that device is pending in the ledger. Entries keep configuration order (accounts, then
/// their cards). Built in O(cards + passes); each list is then O(cards).
public struct PassEntrySelector: Sendable {
    /// The cached configuration the entries come from.
    public let configuration: ExtensionConfiguration
    /// The per-device Add decisions over every configured card.
    public let decider: AddCardDecider
    private let pending: [WalletDevice: Set<String>]

    public init(
        configuration: ExtensionConfiguration, library: PassLibrarySnapshot, ledger: PendingAddLedger = PendingAddLedger(),
        now: Date
    ) {
        self.configuration = configuration
        self.decider = AddCardDecider(library: library, issuerCards: configuration.cardIdentities)
        self.pending = [
            .phone: ledger.pendingPrimaryAccountIdentifiers(on: .phone, at: now),
            .watch: ledger.pendingPrimaryAccountIdentifiers(on: .watch, at: now),
        ]
    }

    /// The entries for the iPhone.
    public var passEntries: [PassEntry] { entries(for: .phone) }

    /// The entries for the paired Watch.
    public var remotePassEntries: [PassEntry] { entries(for: .watch) }

    /// The entries for `device`, in configuration order.
    public func entries(for device: WalletDevice) -> [PassEntry] {
        guard decider.resolver.matcher.library.canAddPasses(to: device) else { return [] }
        var entries: [PassEntry] = []
        for account in configuration.accounts {
            for card in account.cards where isOffered(card, on: device) {
                entries.append(PassEntry(card: card, accountID: account.id, device: device))
            }
        }
        return entries
    }

    /// Whether `entries(for: device)` would be non-empty, stopping at the first entry.
    public func hasEntries(for device: WalletDevice) -> Bool {
        guard decider.resolver.matcher.library.canAddPasses(to: device) else { return false }
        return configuration.accounts.contains { account in account.cards.contains { isOffered($0, on: device) } }
    }

    /// Whether `card` is offered for `device`.
    public func isOffered(_ card: WalletCard, on device: WalletDevice) -> Bool {
        if pending[device]?.contains(card.primaryAccountIdentifier) == true { return false }
        return decider.decision(for: card.identity, on: device).canAdd
    }
}
