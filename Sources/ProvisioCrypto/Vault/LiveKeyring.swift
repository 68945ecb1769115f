import ProvisioCore

/// The keyring a running server seals and opens with, replaceable while it runs (a rotated
/// `vault-keys.json` is picked up without a restart). Every `PANVault` built on it sees a
/// replacement at once; each vault operation reads one snapshot, so a seal never mixes two
/// keyrings.
public final class LiveKeyring: Sendable {
    private let keyring: Locked<VaultKeyring>

    public init(_ keyring: VaultKeyring) {
        self.keyring = Locked(keyring)
    }

    /// The keyring in use now.
    public var current: VaultKeyring { keyring.value }

    /// Switches every vault on this keyring to `newKeyring`.
    public func replace(with newKeyring: VaultKeyring) {
        keyring.withLock { $0 = newKeyring }
    }
}
