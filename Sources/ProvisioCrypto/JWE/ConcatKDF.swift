import Crypto
import Foundation

/// The Concat KDF of NIST SP 800-56A as JOSE uses it for ECDH-ES (RFC 7518 §4.6.2), with SHA-256:
///
///     round i = SHA-256( i as UInt32 BE ‖ Z ‖ AlgorithmID ‖ PartyUInfo ‖ PartyVInfo ‖ SuppPubInfo )
///
/// AlgorithmID, PartyUInfo and PartyVInfo are each prefixed with their length as a 32-bit
/// big-endian integer; SuppPubInfo is keydatalen in bits as a 32-bit big-endian integer. For direct
/// key agreement AlgorithmID is the "enc" value (e.g. "A256GCM"), for key wrapping it is "alg".
/// Unlike Apple's ECC_V2 derivation the fields are length-prefixed, so the two never coincide.
enum ConcatKDF {
    static func symmetricKey(
        sharedSecret: SharedSecret, algorithmID: String, partyUInfo: Data = Data(), partyVInfo: Data = Data(),
        keyDataLength bits: Int
    ) -> SymmetricKey {
        sharedSecret.withUnsafeBytes { z in
            symmetricKey(
                sharedSecretBytes: z, algorithmID: algorithmID, partyUInfo: partyUInfo, partyVInfo: partyVInfo,
                keyDataLength: bits)
        }
    }

    static func symmetricKey(
        sharedSecretBytes z: UnsafeRawBufferPointer, algorithmID: String, partyUInfo: Data = Data(),
        partyVInfo: Data = Data(), keyDataLength bits: Int
    ) -> SymmetricKey {
        precondition(bits > 0 && bits % 8 == 0 && bits <= Int(UInt32.max), "keydatalen must be a positive whole number of bytes")
        // Everything after Z is the same in every round.
        var otherInfo = lengthPrefixed(Data(algorithmID.utf8))
        otherInfo.append(lengthPrefixed(partyUInfo))
        otherInfo.append(lengthPrefixed(partyVInfo))
        otherInfo.append(bigEndian(UInt32(bits)))

        let byteCount = bits / 8
        var derived = [UInt8]()
        derived.reserveCapacity(byteCount + SHA256.byteCount)
        var counter: UInt32 = 1
        while derived.count < byteCount {
            var hasher = SHA256()
            hasher.update(data: bigEndian(counter))
            hasher.update(bufferPointer: z)
            hasher.update(data: otherInfo)
            derived.append(contentsOf: hasher.finalize())
            counter += 1
        }
        return SymmetricKey(data: derived.prefix(byteCount))
    }

    private static func lengthPrefixed(_ field: Data) -> Data {
        var out = bigEndian(UInt32(field.count))
        out.append(field)
        return out
    }

    private static func bigEndian(_ value: UInt32) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }
}
