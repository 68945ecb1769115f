import CProvisioP256
import Crypto
import Foundation

/// ECDH with one fixed P-256 public key through a precomputed table of its multiples.
///
/// Sealing to Apple multiplies a fresh scalar by the same recipient key for every payload. A
/// variable-base multiplication (what `sharedSecretFromKeyAgreement` does) is some 255 doublings
/// and 50 additions; with 37 rows of 64 precomputed multiples of the key it becomes 36 additions,
/// like the generator's own fixed-base multiplication. The table costs about a millisecond to
/// build and 151 KiB to keep, so it pays from the second seal to a key.
///
/// Built in `CProvisioP256` on the constant-time nistz256 assembly of the BoringSSL that
/// swift-crypto links on Linux x86_64; `init` returns nil on other platforms, where callers keep
/// to swift-crypto's ECDH. Tests compare it with that ECDH and with the ECC_V2 known answer.
///
/// `@unchecked Sendable`: the table is written once in `init`, only read afterwards (by any
/// number of threads at once), and freed in `deinit`, when no reader can remain.
public final class P256KeyAgreementTable: @unchecked Sendable {
    /// Whether this build can make tables at all.
    public static var isAvailable: Bool { provisio_p256_table_available() == 1 }

    public let recipient: P256.KeyAgreement.PublicKey
    private let table: UnsafeMutableRawPointer

    /// Nil where tables are unavailable (or memory is short): use swift-crypto's ECDH then.
    public init?(recipient: P256.KeyAgreement.PublicKey) {
        // 04 ‖ x ‖ y; swift-crypto has already checked the point is on the curve.
        let point = [UInt8](recipient.x963Representation)
        guard point.count == 65, point[0] == 0x04 else { return nil }
        let made = point.withUnsafeBufferPointer { bytes in
            provisio_p256_table_create(bytes.baseAddress! + 1, bytes.baseAddress! + 33)
        }
        guard let made else { return nil }
        self.recipient = recipient
        self.table = made
    }

    deinit {
        provisio_p256_table_free(table)
    }

    /// Calls `body` with the ECDH shared secret (the x coordinate of ephemeral·recipient, what
    /// swift-crypto's `sharedSecretFromKeyAgreement` gives) and returns its result; nil, without
    /// calling `body`, if the product is the point at infinity, which no valid private key gives.
    public func withSharedSecret<Result>(
        ephemeralKey: P256.KeyAgreement.PrivateKey, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result? {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { secret in
            let scalar = ephemeralKey.rawRepresentation
            let status = scalar.withUnsafeBytes { scalarBytes -> Int32 in
                guard scalarBytes.count == 32, let scalarBase = scalarBytes.baseAddress else { return 0 }
                return provisio_p256_table_multiply(
                    secret.baseAddress!, table, scalarBase.assumingMemoryBound(to: UInt8.self))
            }
            // Overwritten before the stack buffer is released (best effort: the optimiser may drop it).
            defer { secret.initialize(repeating: 0) }
            guard status == 1 else { return nil }
            return try body(UnsafeRawBufferPointer(secret))
        }
    }
}
