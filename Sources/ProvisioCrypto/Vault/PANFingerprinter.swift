import Crypto
import Foundation
import ProvisioCore

/// A keyed fingerprint of a PAN (HMAC-SHA256 under a key of its own), so a card can be found
/// by its number — when the card network asks about it — without the number ever being stored
/// or compared in clear. Without the key the fingerprint reveals nothing, not even the BIN.
public struct PANFingerprinter: Sendable {
    let key: SymmetricKey

    public init(keyBytes: Data) throws {
        guard keyBytes.count == 32 else {
            throw ProvisioError(.keysInvalid, "The PAN fingerprint key must be 32 bytes.")
        }
        self.key = SymmetricKey(data: keyBytes)
    }

    public static func generateKey() -> Data { SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) } }

    /// A keyed digester for another purpose, derived from this key (see `KeyedDigester`).
    public func derivedDigester(purpose: String) -> KeyedDigester {
        KeyedDigester(deriving: key, purpose: purpose)
    }

    public func fingerprint(_ pan: PrimaryAccountNumber) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("provisio-pan-v1|\(pan.unmaskedDigits)".utf8), using: key)
        return BinaryText.lowercaseHex(mac)
    }
}
