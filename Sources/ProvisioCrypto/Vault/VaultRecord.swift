import Foundation
import ProvisioCore

/// An envelope-encrypted PAN as it is stored: the id of the key-encryption key, the data key
/// wrapped under it, and the PAN encrypted under the data key (both AES-256-GCM, `nonce ‖
/// ciphertext ‖ tag`). Serialised as `pv1.<kek id>.<wrapped key>.<ciphertext>` (base64url).
public struct VaultRecord: Hashable, Sendable {
    public static let formatVersion = "pv1"

    public let keyID: String
    public let wrappedDataKey: Data
    public let ciphertext: Data

    public init(keyID: String, wrappedDataKey: Data, ciphertext: Data) {
        self.keyID = keyID
        self.wrappedDataKey = wrappedDataKey
        self.ciphertext = ciphertext
    }

    public var serialized: String {
        [Self.formatVersion, keyID, BinaryText.base64URL(wrappedDataKey), BinaryText.base64URL(ciphertext)].joined(separator: ".")
    }

    public init(serialized text: String) throws {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[0] == Self.formatVersion, KeyEncryptionKey.isValidID(parts[1]),
            let wrapped = BinaryText.decodeBase64(parts[2]), let ciphertext = BinaryText.decodeBase64(parts[3])
        else {
            throw ProvisioError(.vaultRecordMalformed, "The stored card number record is not a pv1 vault record.")
        }
        self.init(keyID: parts[1], wrappedDataKey: wrapped, ciphertext: ciphertext)
    }
}
