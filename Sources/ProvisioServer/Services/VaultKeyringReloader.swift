import Foundation
import ProvisioCore
import ProvisioCrypto

/// Swaps a running server's vault keyring for the one in `vault-keys.json` when the file
/// changed. The check is a `stat` (inode, size, modification time), so it can run every few
/// seconds; the file is read only when it changed, or when asked (SIGHUP).
///
/// A file that does not load, or does not follow from the keyring in use (a key the server
/// holds neither kept nor retired, or a known id with other key material), leaves the keyring
/// in use untouched: a server never runs on half a keyring or one from another installation.
public struct VaultKeyringReloader: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// Nothing new on disk (or the same keys again).
        case unchanged
        /// The vault now uses `keyring`'s keys.
        case reloaded(activeKeyID: String, loadedKeyIDs: [String], retiredKeyIDs: [String])
        /// The file was refused; the keyring in use stays.
        case refused(ProvisioError.Code, message: String)
    }

    let directory: KeyDirectory
    let live: LiveKeyring
    /// The version of the file last read (loaded or refused), so an unchanged file is not
    /// read again and a bad one is reported once per version.
    private var lastStamp: KeyFileStamp?

    public init(directory: KeyDirectory, live: LiveKeyring) {
        self.directory = directory
        self.live = live
    }

    /// Reloads if the file changed since the last check (the first check always reads it), or
    /// unconditionally with `force`.
    public mutating func check(force: Bool = false) -> Outcome {
        let stamp = directory.vaultKeysStamp()
        guard force || lastStamp == nil || stamp != lastStamp else { return .unchanged }
        lastStamp = stamp
        let current = live.current
        let fresh: VaultKeyring
        do {
            fresh = try directory.loadKeyring()
            try Self.checkSuccession(from: current, to: fresh)
        } catch let error as ProvisioError {
            return .refused(error.code, message: error.message)
        } catch {
            return .refused(.keysInvalid, message: "The vault key file does not load.")
        }
        live.replace(with: fresh)
        guard fresh.loadedIDs != current.loadedIDs || fresh.retiredIDs != current.retiredIDs else { return .unchanged }
        return .reloaded(activeKeyID: fresh.active.id, loadedKeyIDs: fresh.loadedIDs, retiredKeyIDs: fresh.retiredIDs.sorted())
    }

    /// `next` must account for every key `current` holds (kept, or retired on purpose) with the
    /// same material: anything else is a file from elsewhere, and using it would strand records.
    static func checkSuccession(from current: VaultKeyring, to next: VaultKeyring) throws {
        let nextKeys = [next.active] + next.decryptOnly
        for key in [current.active] + current.decryptOnly {
            if let successor = nextKeys.first(where: { $0.id == key.id }) {
                guard successor.exportKeyBytes() == key.exportKeyBytes() else {
                    throw ProvisioError(
                        .vaultKeyringUnrelated,
                        "The vault key file gives the key-encryption key \(key.id) other key material; keeping the keys in use.")
                }
            } else if !next.retiredIDs.contains(key.id) {
                throw ProvisioError(
                    .vaultKeyringUnrelated,
                    "The vault key file drops the key-encryption key \(key.id) without retiring it; keeping the keys in use.")
            }
        }
    }
}
