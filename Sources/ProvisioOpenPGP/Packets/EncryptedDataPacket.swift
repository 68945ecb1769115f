import Crypto
import Foundation
import _CryptoExtras

/// A version 1 symmetrically encrypted integrity protected data packet (RFC 9580 §5.13.1):
/// CFB with a zero IV over a random block, its last two octets again, the inner packets and a
/// modification detection code (a 0xD3 0x14 packet holding the SHA-1 of all that precedes it).
enum EncryptedDataPacket {
    private static let mdcHeader: [UInt8] = [0xD3, 0x14]

    static func seal(_ inner: [UInt8], cipher: OpenPGPSymmetricAlgorithm, sessionKey: [UInt8]) throws(OpenPGPError) -> [UInt8] {
        guard sessionKey.count == cipher.keyByteCount else {
            throw OpenPGPError(.cryptoFailure, "a session key of the wrong size")
        }
        var prefix = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in prefix.indices { prefix[index] = generator.next() }
        var plaintext = prefix + prefix.suffix(2)
        plaintext.reserveCapacity(plaintext.count + inner.count + 22)
        plaintext.append(contentsOf: inner)
        plaintext.append(contentsOf: mdcHeader)
        plaintext.append(contentsOf: Insecure.SHA1.hash(data: plaintext))
        do {
            let ciphertext = try AES._CFB.encrypt(
                plaintext, using: SymmetricKey(data: sessionKey), iv: try AES._CFB.IV(ivBytes: zeroIV))
            return [1] + ciphertext
        } catch {
            throw OpenPGPError(.cryptoFailure, "AES-CFB encryption failed")
        }
    }

    /// The inner packets' bytes, or nil when the modification detection code does not match.
    /// The quick check of the repeated octets is not used to refuse early: RFC 9580 §5.13.1 warns
    /// it is an oracle; the MDC decides.
    static func open(_ body: [UInt8], cipher: OpenPGPSymmetricAlgorithm, sessionKey: [UInt8]) throws(OpenPGPError) -> [UInt8]? {
        var reader = ByteReader(body)
        let version = try reader.byte()
        guard version == 1 else {
            throw OpenPGPError(.unsupportedPacket, "version \(version) encrypted data (this module reads version 1)")
        }
        let ciphertext = reader.rest()
        guard ciphertext.count >= 18 + 22, sessionKey.count == cipher.keyByteCount else { return nil }
        let plaintext: [UInt8]
        do {
            plaintext = Array(
                try AES._CFB.decrypt(ciphertext, using: SymmetricKey(data: sessionKey), iv: try AES._CFB.IV(ivBytes: zeroIV)))
        } catch {
            throw OpenPGPError(.cryptoFailure, "AES-CFB decryption failed")
        }
        let protected = plaintext[..<(plaintext.count - 20)]
        let digest = Insecure.SHA1.hash(data: protected)
        // Compared in constant time: which octet differs says nothing.
        var difference: UInt8 = 0
        for (expected, found) in zip(mdcHeader + Array(digest), plaintext.suffix(22)) { difference |= expected ^ found }
        guard difference == 0 else { return nil }
        return Array(plaintext[18..<(plaintext.count - 22)])
    }

    private static let zeroIV = [UInt8](repeating: 0, count: 16)
}
