import Crypto
import Foundation

/// EME-OAEP encoding (RFC 8017 §7.1.1) with one hash for the label digest and MGF1, and an
/// empty label: how `MDESPayloadEncryptor` reads the MDES document's `oaepHashingAlgorithm` (it names one
/// hash and no label; docs/mdes.md says why the same hash is assumed for MGF1).
enum RSAOAEPEncoding {
    /// The encoded message, `modulusByteCount` bytes, ready for `RSAPublicOperation`.
    static func encode<H: HashFunction>(
        _ message: [UInt8], modulusByteCount k: Int, hash: H.Type, seed: [UInt8]
    ) throws -> [UInt8] {
        let hashLength = H.Digest.byteCount
        guard seed.count == hashLength, message.count <= k - 2 * hashLength - 2 else {
            throw MDESEncryptionError.keyUnusable
        }
        let labelHash = Array(H.hash(data: Data()))
        let padding = [UInt8](repeating: 0, count: k - message.count - 2 * hashLength - 2)
        let block = labelHash + padding + [0x01] + message
        let maskedBlock = zip(block, mask(seed, length: k - hashLength - 1, hash: H.self)).map { $0 ^ $1 }
        let maskedSeed = zip(seed, mask(maskedBlock, length: hashLength, hash: H.self)).map { $0 ^ $1 }
        return [0x00] + maskedSeed + maskedBlock
    }

    /// MGF1 (RFC 8017 §B.2.1): the hash of the seed and a 4-byte big-endian counter, repeated.
    static func mask<H: HashFunction>(_ seed: [UInt8], length: Int, hash: H.Type) -> [UInt8] {
        var output = [UInt8]()
        var counter: UInt32 = 0
        while output.count < length {
            let counterBytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: counter >> $0) }
            output += Array(H.hash(data: seed + counterBytes))
            counter += 1
        }
        return Array(output.prefix(length))
    }
}
