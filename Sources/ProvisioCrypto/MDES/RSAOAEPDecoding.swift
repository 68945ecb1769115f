import Crypto
import Foundation

/// EME-OAEP decoding (RFC 8017 section 7.1.2, steps 3a–3g) with MGF1 over the same hash and an
/// empty label, for the OAEP variant swift-crypto 4.5 does not offer.
///
/// `_RSA.Encryption` offers OAEP with SHA-1 and SHA-256 only; MDES also sends OAEP with SHA-512.
/// BoringSSL has it, but swift-crypto exports BoringSSL through no product. So the RSA
/// operation stays BoringSSL's (`RSA_sign_raw` without padding, blinded and checked, reached
/// through `_RSA.BlindSigning.PrivateKey.blindSignature(for:)`, which is exactly RSADP), and only
/// this unpadding is Provisio's. It reads every byte whatever they hold and has one failure,
/// `nil`, so its timing and its answer say nothing about where a block went wrong (Manger).
enum RSAOAEPDecoding {
    /// The message inside `encoded`, the k-byte integer RSADP produced, or nil.
    static func decode<H: HashFunction>(_ encoded: [UInt8], hash: H.Type) -> [UInt8]? {
        let hashLength = H.Digest.byteCount
        let k = encoded.count
        guard k >= 2 * hashLength + 2 else { return nil }

        let maskedSeed = encoded[1...hashLength]
        let maskedDB = encoded[(hashLength + 1)...]
        var seed = zip(maskedSeed, mgf1(seed: maskedDB, length: hashLength, hash: H.self)).map { $0 ^ $1 }
        var db = zip(maskedDB, mgf1(seed: seed, length: k - hashLength - 1, hash: H.self)).map { $0 ^ $1 }
        defer {
            SensitiveBytes.wipe(&seed)
            SensitiveBytes.wipe(&db)
        }

        // Every check folds into `bad` (0 or 0xFF); the one branch is on the final verdict.
        let emptyLabelHash = Array(H.hash(data: Data()))
        var bad = isNonZero(encoded[0])
        for index in 0..<hashLength {
            bad |= isNonZero(db[index] ^ emptyLabelHash[index])
        }
        // After lHash: zero or more 0x00, one 0x01, then the message.
        var looking: UInt8 = 0xFF
        var separator = 0
        for index in hashLength..<db.count {
            let isOne = ~isNonZero(db[index] ^ 0x01)
            let isZero = ~isNonZero(db[index])
            separator = select(looking & isOne, index, separator)
            bad |= looking & ~isOne & ~isZero
            looking &= ~isOne
        }
        bad |= looking
        guard bad == 0 else { return nil }
        return Array(db[(separator + 1)...])
    }

    /// MGF1 (RFC 8017 appendix B.2.1): hashes of seed ‖ 32-bit counter, cut to `length`.
    static func mgf1<H: HashFunction>(seed: some Collection<UInt8>, length: Int, hash: H.Type) -> [UInt8] {
        var mask: [UInt8] = []
        mask.reserveCapacity(length + H.Digest.byteCount)
        var counter: UInt32 = 0
        while mask.count < length {
            var hasher = H()
            hasher.update(data: Array(seed))
            hasher.update(data: withUnsafeBytes(of: counter.bigEndian) { Array($0) })
            mask.append(contentsOf: hasher.finalize())
            counter += 1
        }
        return Array(mask.prefix(length))
    }

    /// 0xFF if `byte` is not zero, else 0x00, without a branch.
    private static func isNonZero(_ byte: UInt8) -> UInt8 {
        let wide = UInt32(byte)
        return UInt8(truncatingIfNeeded: 0 &- ((wide | (0 &- wide)) >> 31))
    }

    /// `a` where `mask` is 0xFF, else `b`, without a branch.
    private static func select(_ mask: UInt8, _ a: Int, _ b: Int) -> Int {
        let wide = Int(Int8(bitPattern: mask))  // 0xFF → -1 (all ones), 0x00 → 0
        return (a & wide) | (b & ~wide)
    }
}
