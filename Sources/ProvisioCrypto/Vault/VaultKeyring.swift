import ProvisioCore

/// The key-encryption keys the vault knows: one active key that wraps new data keys, older
/// keys kept only to unwrap (and re-wrap) existing records, and the ids of retired keys whose
/// material is gone — so that a record under a retired key fails with a clear error rather
/// than "unknown key".
public struct VaultKeyring: Sendable {
    public private(set) var active: KeyEncryptionKey
    public private(set) var decryptOnly: [KeyEncryptionKey]
    public private(set) var retiredIDs: Set<String>

    public init(active: KeyEncryptionKey, decryptOnly: [KeyEncryptionKey] = [], retiredIDs: Set<String> = []) {
        self.active = active
        self.decryptOnly = decryptOnly.filter { $0.id != active.id }
        self.retiredIDs = retiredIDs
    }

    /// Makes `newKey` active; the previous active key stays available for unwrapping.
    public mutating func rotate(to newKey: KeyEncryptionKey) throws {
        guard newKey.id != active.id, !decryptOnly.contains(where: { $0.id == newKey.id }), !retiredIDs.contains(newKey.id)
        else {
            throw ProvisioError(.vaultKeyInvalid, "The key id \(newKey.id) is already in the keyring.")
        }
        decryptOnly.append(active)
        active = newKey
    }

    /// Forgets a decrypt-only key's material. Do this only after every record was re-wrapped.
    public mutating func retire(id: String) throws {
        guard id != active.id else {
            throw ProvisioError(.vaultKeyInvalid, "The active key-encryption key cannot be retired; rotate first.")
        }
        guard let index = decryptOnly.firstIndex(where: { $0.id == id }) else {
            throw ProvisioError(.vaultKeyUnknown, "The keyring holds no decrypt-only key-encryption key with that id.")
        }
        decryptOnly.remove(at: index)
        retiredIDs.insert(id)
    }

    /// Every key id whose material the keyring holds, the active one first.
    public var loadedIDs: [String] { [active.id] + decryptOnly.map(\.id) }

    func key(withID id: String) throws -> KeyEncryptionKey {
        if id == active.id { return active }
        if let key = decryptOnly.first(where: { $0.id == id }) { return key }
        if retiredIDs.contains(id) {
            throw ProvisioError(
                .vaultKeyRetired,
                "The record is wrapped under the retired key-encryption key \(id); it can no longer be decrypted.")
        }
        throw ProvisioError(.vaultKeyUnknown, "The record names the key-encryption key \(id), which this keyring does not hold.")
    }
}
