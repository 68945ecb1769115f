import Crypto
import Foundation

/// Draws one-use P-256 key-agreement keys with one scalar multiplication.
///
/// swift-crypto's `P256.KeyAgreement.PrivateKey()` (BoringSSL) runs a FIPS pair-wise consistency
/// test on every key it generates — an ECDSA signature and its verification — and by default
/// draws again until the key is "compact representable", about two keys per call: some six
/// scalar multiplications before the one ECDH that matters, most of an ECC_V2 seal's time. A
/// key that agrees one secret and is then dropped needs neither: it signs nothing and travels
/// uncompressed. So this takes a uniform scalar in [1, n − 1] from a cryptographically secure
/// generator and lets BoringSSL derive the public point with one fixed-base multiplication.
public enum EphemeralKeyAgreementKey {
    /// A draw that lands outside [1, n − 1] happens with probability about 2⁻³²; 64 in a row
    /// means the generator is broken, and sealing with it would be worse than stopping.
    static let maximumDraws = 64

    /// A fresh key from the system's CSPRNG (`getrandom` on Linux, `SecRandomCopyBytes` on
    /// Apple platforms, through `SystemRandomNumberGenerator`).
    public static func generate() -> P256.KeyAgreement.PrivateKey {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// The seam for tests; production code must pass a cryptographically secure generator.
    static func generate<Generator: RandomNumberGenerator>(using generator: inout Generator)
        -> P256.KeyAgreement.PrivateKey
    {
        for _ in 0..<maximumDraws {
            var scalar = [UInt8](repeating: 0, count: 32)
            // The key holds its own copy; this one is cleared through a C call the optimizer
            // cannot drop, so a one-use secret does not linger in freed memory.
            defer { scalar.withUnsafeMutableBytes { P256KeyAgreementTable.wipe($0) } }
            for word in 0..<4 {
                let value = generator.next().bigEndian
                withUnsafeBytes(of: value) { bytes in
                    scalar.replaceSubrange(word * 8..<word * 8 + 8, with: bytes)
                }
            }
            // BoringSSL refuses zero and scalars ≥ n, the group order; draw again then.
            if let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: scalar) {
                return key
            }
        }
        preconditionFailure("The random generator produced \(maximumDraws) invalid P-256 scalars in a row.")
    }
}
