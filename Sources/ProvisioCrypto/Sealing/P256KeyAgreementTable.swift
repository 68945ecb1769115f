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
/// swift-crypto links on Linux x86_64, through weak references: where those internals are
/// missing (other platforms, another swift-crypto) `init` returns nil and callers keep to
/// swift-crypto's ECDH. Because the internals may also change meaning under the same names, every
/// new table first agrees one random secret with swift-crypto's ECDH, or is refused (and
/// reported to `P256TableSelfCheckLog`).
///
/// `@unchecked Sendable`: the table is written once in `init`, only read afterwards (by any
/// number of threads at once), and freed in `deinit`, when no reader can remain.
public final class P256KeyAgreementTable: @unchecked Sendable {
    /// Which of BoringSSL's implementations the multiplications run on: chosen by BoringSSL's
    /// CPU detection, which `OPENSSL_ia32cap` can narrow (how CI runs the portable ones).
    public struct Variant: Sendable, Equatable {
        /// MULX/ADCX/ADOX field arithmetic (`_adx`); else the portable `_nohw` functions.
        public var usesADX: Bool
        /// The AVX2 table select (`select_w7_avx2`); else `select_w7_nohw`.
        public var usesAVX2: Bool
    }

    /// Whether this build can make tables at all: every BoringSSL function resolved.
    public static var isAvailable: Bool { provisio_p256_table_available() == 1 }

    /// Nil where tables are unavailable.
    public static var variant: Variant? {
        let flags = provisio_p256_table_variant()
        guard flags >= 0 else { return nil }
        return Variant(
            usesADX: flags & PROVISIO_P256_VARIANT_ADX != 0, usesAVX2: flags & PROVISIO_P256_VARIANT_AVX2 != 0)
    }

    public let recipient: P256.KeyAgreement.PublicKey
    private let table: UnsafeMutableRawPointer

    /// Nil where tables are unavailable, memory is short, or the new table disagrees with
    /// swift-crypto's ECDH: use swift-crypto's ECDH then.
    public convenience init?(recipient: P256.KeyAgreement.PublicKey) {
        self.init(recipient: recipient, multiplying: recipient, selfCheckLog: .shared)
    }

    /// The seam for the self-check's tests: a table of `point` claiming to be `recipient`'s.
    init?(
        recipient: P256.KeyAgreement.PublicKey, multiplying point: P256.KeyAgreement.PublicKey,
        selfCheckLog: P256TableSelfCheckLog
    ) {
        guard let made = Self.makeTable(x963: [UInt8](point.x963Representation)) else { return nil }
        self.recipient = recipient
        self.table = made
        guard agreesWithSwiftCrypto() else {
            selfCheckLog.recordFailure()
            return nil  // deinit frees the table
        }
    }

    deinit {
        provisio_p256_table_free(table)
    }

    /// The C table of an uncompressed point (04 ‖ x ‖ y), or nil when the C side refuses it.
    static func makeTable(x963 point: [UInt8]) -> UnsafeMutableRawPointer? {
        guard point.count == 65, point[0] == 0x04 else { return nil }
        return point.withUnsafeBufferPointer { bytes in
            provisio_p256_table_create(bytes.baseAddress! + 1, bytes.baseAddress! + 33)
        }
    }

    /// Whether the C side builds a table for (x, y): false for a point off the curve.
    static func acceptsPoint(x963 point: [UInt8]) -> Bool {
        guard let made = makeTable(x963: point) else { return false }
        provisio_p256_table_free(made)
        return true
    }

    /// Zeroes `buffer` with stores the optimiser cannot drop as dead (they go through C).
    static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        provisio_p256_wipe(base, buffer.count)
    }

    /// One random secret through the table and through swift-crypto's ECDH: the same, or the
    /// table must not seal (BoringSSL's internals may have changed meaning under the same names).
    private func agreesWithSwiftCrypto() -> Bool {
        let probe = EphemeralKeyAgreementKey.generate()
        guard var expected = try? probe.sharedSecretFromKeyAgreement(with: recipient).withUnsafeBytes({ Array($0) })
        else { return false }
        defer { expected.withUnsafeMutableBytes(Self.wipe) }
        let same = withSharedSecret(ephemeralKey: probe) { actual in actual.elementsEqual(expected) }
        return same == true
    }

    /// Calls `body` with the ECDH shared secret (the x coordinate of ephemeral·recipient, what
    /// swift-crypto's `sharedSecretFromKeyAgreement` gives) and returns its result; nil, without
    /// calling `body`, if the product is the point at infinity, which no valid private key gives.
    public func withSharedSecret<Result>(
        ephemeralKey: P256.KeyAgreement.PrivateKey, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result? {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { secret in
            let secretBytes = UnsafeMutableRawBufferPointer(secret)
            defer { Self.wipe(secretBytes) }
            // A copy of the private scalar of our own: wiped before it is released.
            var scalar = ephemeralKey.rawRepresentation
            let status = scalar.withUnsafeMutableBytes { scalarBytes -> Int32 in
                defer { Self.wipe(scalarBytes) }
                guard scalarBytes.count == 32, let scalarBase = scalarBytes.baseAddress else { return 0 }
                return provisio_p256_table_multiply(
                    secret.baseAddress!, table, scalarBase.assumingMemoryBound(to: UInt8.self))
            }
            guard status == 1 else { return nil }
            return try body(UnsafeRawBufferPointer(secret))
        }
    }
}
