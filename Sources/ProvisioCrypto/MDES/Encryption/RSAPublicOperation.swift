import Foundation

/// RSAEP (RFC 8017 §5.1.1), c = m^e mod n, on a message already padded to the modulus's length.
///
/// swift-crypto wraps with OAEP-SHA-1, OAEP-SHA-256 and PKCS#1 v1.5 only; MDES also names
/// OAEP-SHA-512, so the encryptor pads that itself (`RSAOAEPEncoding`) and needs the bare public
/// operation. Montgomery multiplication over 32-bit limbs: a public exponent is short (65537
/// takes 17 products), so nothing here needs to be fast, and nothing is secret (the public key
/// and a message that is about to be sent).
struct RSAPublicOperation: Sendable {
    /// Least significant limb first.
    private let modulus: [UInt32]
    private let exponent: [UInt8]
    /// −n⁻¹ mod 2³², for the Montgomery reduction.
    private let inverse: UInt32
    /// R² mod n with R = 2^(32·limbs), to enter the Montgomery domain.
    private let rSquared: [UInt32]
    let modulusByteCount: Int

    /// - Parameters: big-endian modulus and public exponent, as `getKeyPrimitives()` gives them.
    init(modulus: Data, publicExponent: Data) throws {
        let trimmed = Array(modulus.drop(while: { $0 == 0 }))
        guard trimmed.count >= 128, trimmed.last.map({ $0 & 1 == 1 }) == true, !publicExponent.isEmpty else {
            throw MDESEncryptionError.keyUnusable
        }
        self.modulusByteCount = trimmed.count
        self.modulus = Self.limbs(trimmed, count: (trimmed.count + 3) / 4)
        self.exponent = Array(publicExponent.drop(while: { $0 == 0 }))
        // Newton's iteration doubles the correct low bits of n⁻¹ each round: 5 rounds give 32.
        var x: UInt32 = 1
        for _ in 0..<5 { x = x &* (2 &- self.modulus[0] &* x) }
        self.inverse = 0 &- x
        self.rSquared = Self.reduced(bitShift: 64 * self.modulus.count, modulus: self.modulus)
    }

    /// m^e mod n, big-endian, `modulusByteCount` bytes; the message must be below the modulus.
    func apply(_ message: [UInt8]) throws -> [UInt8] {
        guard message.count == modulusByteCount else { throw MDESEncryptionError.keyUnusable }
        let m = Self.limbs(message, count: modulus.count)
        guard Self.compare(m, modulus) < 0 else { throw MDESEncryptionError.keyUnusable }
        let base = multiply(m, rSquared)
        var result = base
        var started = false
        for byte in exponent {
            for bit in (0..<8).reversed() {
                if started { result = multiply(result, result) }
                if (byte >> bit) & 1 == 1 {
                    result = started ? multiply(result, base) : base
                    started = true
                }
            }
        }
        var one = [UInt32](repeating: 0, count: modulus.count)
        one[0] = 1
        let plain = multiply(result, one)
        var bytes = [UInt8]()
        bytes.reserveCapacity(modulus.count * 4)
        for limb in plain.reversed() {
            bytes += [
                UInt8(limb >> 24), UInt8(truncatingIfNeeded: limb >> 16), UInt8(truncatingIfNeeded: limb >> 8),
                UInt8(truncatingIfNeeded: limb),
            ]
        }
        return Array(bytes.suffix(modulusByteCount))
    }

    /// Montgomery product a·b·R⁻¹ mod n (coarsely integrated operand scanning).
    private func multiply(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        let s = modulus.count
        var t = [UInt32](repeating: 0, count: s + 2)
        for i in 0..<s {
            var carry: UInt64 = 0
            for j in 0..<s {
                let sum = UInt64(t[j]) + UInt64(a[j]) * UInt64(b[i]) + carry
                t[j] = UInt32(truncatingIfNeeded: sum)
                carry = sum >> 32
            }
            var sum = UInt64(t[s]) + carry
            t[s] = UInt32(truncatingIfNeeded: sum)
            t[s + 1] = UInt32(sum >> 32)
            let m = t[0] &* inverse
            sum = UInt64(t[0]) + UInt64(m) * UInt64(modulus[0])
            carry = sum >> 32
            for j in 1..<s {
                sum = UInt64(t[j]) + UInt64(m) * UInt64(modulus[j]) + carry
                t[j - 1] = UInt32(truncatingIfNeeded: sum)
                carry = sum >> 32
            }
            sum = UInt64(t[s]) + carry
            t[s - 1] = UInt32(truncatingIfNeeded: sum)
            t[s] = t[s + 1] + UInt32(sum >> 32)
            t[s + 1] = 0
        }
        var result = Array(t[0...s])
        if result[s] != 0 || Self.compare(Array(result[0..<s]), modulus) >= 0 {
            result = Self.subtract(result, modulus + [0])
        }
        return Array(result[0..<s])
    }

    /// 2^shift mod n, by doubling and subtracting: slow, once per key.
    private static func reduced(bitShift: Int, modulus: [UInt32]) -> [UInt32] {
        var x = [UInt32](repeating: 0, count: modulus.count + 1)
        x[0] = 1
        let n = modulus + [0]
        for _ in 0..<bitShift {
            var carry: UInt32 = 0
            for index in x.indices {
                let next = x[index] >> 31
                x[index] = x[index] << 1 | carry
                carry = next
            }
            if compare(x, n) >= 0 { x = subtract(x, n) }
        }
        return Array(x[0..<modulus.count])
    }

    private static func limbs(_ bigEndian: [UInt8], count: Int) -> [UInt32] {
        var limbs = [UInt32](repeating: 0, count: count)
        for (index, byte) in bigEndian.reversed().enumerated() {
            limbs[index / 4] |= UInt32(byte) << (8 * UInt32(index % 4))
        }
        return limbs
    }

    /// Compares equal-length little-endian numbers.
    private static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
        for index in a.indices.reversed() where a[index] != b[index] {
            return a[index] < b[index] ? -1 : 1
        }
        return 0
    }

    /// a − b for equal-length numbers with a ≥ b.
    private static func subtract(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var result = a
        var borrow: UInt64 = 0
        for index in a.indices {
            let difference = UInt64(a[index]) &- UInt64(b[index]) &- borrow
            result[index] = UInt32(truncatingIfNeeded: difference)
            borrow = (difference >> 63) & 1
        }
        return result
    }
}
