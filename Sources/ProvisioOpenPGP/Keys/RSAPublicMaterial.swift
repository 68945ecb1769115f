import Crypto
import Foundation
import _CryptoExtras

/// An RSA public key as OpenPGP carries it (RFC 9580 §5.5.5.1): modulus n and exponent e.
struct RSAPublicMaterial: Hashable, Sendable {
    let modulus: MPI
    let exponent: MPI

    var modulusByteCount: Int { (modulus.bitCount + 7) / 8 }

    func verifies(_ signature: MPI, digest: OpenPGPDigest) -> Bool {
        guard signature.bytes.count <= modulusByteCount,
            let key = try? _RSA.Signing.PublicKey(n: modulus.bytes, e: exponent.bytes)
        else { return false }
        let value = _RSA.Signing.RSASignature(rawRepresentation: signature.padded(to: modulusByteCount))
        switch digest {
        case .sha256(let digest): return key.isValidSignature(value, for: digest, padding: .insecurePKCS1v1_5)
        case .sha384(let digest): return key.isValidSignature(value, for: digest, padding: .insecurePKCS1v1_5)
        case .sha512(let digest): return key.isValidSignature(value, for: digest, padding: .insecurePKCS1v1_5)
        }
    }

    /// EME-PKCS1-v1_5 encryption (RFC 9580 §5.1.3): the padding OpenPGP's RSA session key
    /// packet prescribes, whatever swift-crypto's name for it says about its other uses.
    func encrypt(_ message: [UInt8]) throws(OpenPGPError) -> MPI {
        do {
            let key = try _RSA.Encryption.PublicKey(n: modulus.bytes, e: exponent.bytes)
            return MPI(unsigned: try key.encrypt(message, padding: ._WEAK_AND_INSECURE_PKCS_V1_5))
        } catch {
            throw OpenPGPError(.cryptoFailure, "RSA encryption to the recipient's key failed")
        }
    }
}
