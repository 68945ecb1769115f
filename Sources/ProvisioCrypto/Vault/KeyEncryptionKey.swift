import Crypto
import Foundation
import ProvisioCore

/// An AES-256 key-encryption key (KEK) with the id that stored records name it by.
public struct KeyEncryptionKey: Sendable {
    public let id: String
    let key: SymmetricKey

    public init(id: String, keyBytes: Data) throws {
        guard Self.isValidID(id) else {
            throw ProvisioError(.vaultKeyInvalid, "A key-encryption key id must be 1-64 characters of [A-Za-z0-9_-].")
        }
        guard keyBytes.count == 32 else {
            throw ProvisioError(.vaultKeyInvalid, "A key-encryption key must be 32 bytes.")
        }
        self.id = id
        self.key = SymmetricKey(data: keyBytes)
    }

    /// A fresh random key with an id like `kek_3f9a0c1d2e4b`.
    public static func generate() -> KeyEncryptionKey {
        let key = SymmetricKey(size: .bits256)
        let suffix = BinaryText.lowercaseHex(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0.prefix(6)) })
        return KeyEncryptionKey(uncheckedID: "kek_\(suffix)", key: key)
    }

    private init(uncheckedID: String, key: SymmetricKey) {
        self.id = uncheckedID
        self.key = key
    }

    /// Raw key bytes, for writing the key file only.
    public func exportKeyBytes() -> Data { key.withUnsafeBytes { Data($0) } }

    static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }
}
