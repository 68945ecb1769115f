import Crypto
import Foundation
import _CryptoExtras

/// An RSA secret key (RFC 9580 §5.5.5.1: d, p, q and u = p⁻¹ mod q) with the swift-crypto key
/// built from it once, which also checks that the numbers make a key. (swift-crypto's
/// decryption key is not Sendable; it is made from the signing key's DER when needed.)
struct RSASecretMaterial: Sendable {
    let d: MPI
    let p: MPI
    let q: MPI
    let u: MPI
    let signingKey: _RSA.Signing.PrivateKey

    init(public material: RSAPublicMaterial, d: MPI, p: MPI, q: MPI, u: MPI) throws(OpenPGPError) {
        self.d = d
        self.p = p
        self.q = q
        self.u = u
        do {
            let (n, e) = (material.modulus.bytes, material.exponent.bytes)
            signingKey = try _RSA.Signing.PrivateKey(n: n, e: e, d: d.bytes, p: p.bytes, q: q.bytes)
        } catch {
            throw OpenPGPError(.invalidKey, "the RSA secret key does not match its public key")
        }
    }

    /// A fresh key from swift-crypto, its numbers read back from its PKCS #1 form. OpenPGP's p
    /// is PKCS #1's q and the reverse, so that PKCS #1's qInv (q⁻¹ mod p) is OpenPGP's u.
    static func generate(bits: Int) throws(OpenPGPError) -> (RSAPublicMaterial, RSASecretMaterial) {
        do {
            let key = try _RSA.Signing.PrivateKey(keySize: .init(bitCount: bits))
            let numbers = try PKCS1PrivateKey(der: Array(key.derRepresentation))
            let material = RSAPublicMaterial(modulus: numbers.modulus, exponent: numbers.publicExponent)
            let secret = try RSASecretMaterial(
                public: material, d: numbers.privateExponent, p: numbers.prime2, q: numbers.prime1,
                u: numbers.coefficient)
            return (material, secret)
        } catch let error as OpenPGPError {
            throw error
        } catch {
            throw OpenPGPError(.cryptoFailure, "RSA key generation failed")
        }
    }

    /// The algorithm-specific secret fields as written, without the checksum.
    var encoded: [UInt8] { d.encoded + p.encoded + q.encoded + u.encoded }

    func sign(_ digest: OpenPGPDigest) throws(OpenPGPError) -> MPI {
        do {
            let signature =
                switch digest {
                case .sha256(let digest): try signingKey.signature(for: digest, padding: .insecurePKCS1v1_5)
                case .sha384(let digest): try signingKey.signature(for: digest, padding: .insecurePKCS1v1_5)
                case .sha512(let digest): try signingKey.signature(for: digest, padding: .insecurePKCS1v1_5)
                }
            return MPI(unsigned: signature.rawRepresentation)
        } catch {
            throw OpenPGPError(.cryptoFailure, "RSA signing failed")
        }
    }

    /// EME-PKCS1-v1_5 decryption; nil when it fails, which the caller must not reveal apart
    /// from any other failure of the message (RFC 9580 §14.6, Bleichenbacher's attack).
    func decrypt(_ value: MPI, modulusByteCount: Int) -> [UInt8]? {
        guard value.bytes.count <= modulusByteCount,
            let decryptionKey = try? _RSA.Encryption.PrivateKey(derRepresentation: signingKey.derRepresentation)
        else { return nil }
        return (try? decryptionKey.decrypt(value.padded(to: modulusByteCount), padding: ._WEAK_AND_INSECURE_PKCS_V1_5))
            .map { Array($0) }
    }
}
