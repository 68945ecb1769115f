import Crypto
import Foundation
import ProvisioCore

/// HMAC-SHA256 under a key kept in the key directory, for every digest the server stores of
/// data that may contain a PAN (an idempotent request's body, say). An unkeyed hash of such
/// data is a PAN oracle: with the BIN, last four and expiry in clear, the ~10^5 Luhn-valid
/// middles are searched in seconds. With the key, the digest reveals nothing.
public struct KeyedDigester: Sendable {
    let key: SymmetricKey

    public init(key: SymmetricKey) {
        self.key = key
    }

    /// A digester for one purpose, derived (HKDF-SHA256) from a 32-byte master key, so one key
    /// file serves several purposes whose digests can never be compared with one another.
    public init(deriving masterKey: SymmetricKey, purpose: String) {
        self.key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, salt: Data("provisio-keyed-digest-v1".utf8), info: Data(purpose.utf8),
            outputByteCount: 32)
    }

    /// Lowercase hex of HMAC-SHA256 over the parts, each length-prefixed so that moving bytes
    /// from one part to the next changes the digest.
    public func digest(_ parts: [Data]) -> String {
        var mac = HMAC<SHA256>(key: key)
        for part in parts {
            let length = UInt64(part.count).bigEndian
            mac.update(data: withUnsafeBytes(of: length) { Data($0) })
            mac.update(data: part)
        }
        return BinaryText.lowercaseHex(mac.finalize())
    }
}
