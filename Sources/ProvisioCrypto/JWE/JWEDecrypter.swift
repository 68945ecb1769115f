import Crypto
import Foundation
import ProvisioCore

/// Opens a compact JWE made with ECDH-ES direct key agreement and A256GCM to our P-256 key
/// (the card network's side; the sandbox uses it). Everything else is refused, never guessed at.
///
/// Checks run cheapest and least trusting first — shape, then algorithms, then the ephemeral
/// key — so each failure has one clear code; only then is the key agreed and the tag checked.
public struct JWEDecrypter: Sendable {
    public let privateKey: P256.KeyAgreement.PrivateKey

    public init(privateKey: P256.KeyAgreement.PrivateKey) {
        self.privateKey = privateKey
    }

    public func decrypt(_ compact: String) throws -> JWEDecrypted {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5 else {
            throw ProvisioError(.jweMalformed, "A compact JWE has five dot-separated parts; this has \(parts.count).")
        }
        guard parts[1].isEmpty else {
            throw ProvisioError(.jweMalformed, "With ECDH-ES direct key agreement the encrypted-key part must be empty.")
        }
        guard let headerBytes = Base64URL.decode(parts[0]), !headerBytes.isEmpty else {
            throw ProvisioError(.jweMalformed, "The JWE protected header is not unpadded base64url.")
        }
        guard let iv = Base64URL.decode(parts[2]), let ciphertext = Base64URL.decode(parts[3]),
            let tag = Base64URL.decode(parts[4])
        else {
            throw ProvisioError(.jweMalformed, "The JWE IV, ciphertext or tag is not unpadded base64url.")
        }
        guard iv.count == 12 else {
            throw ProvisioError(.jweMalformed, "A256GCM takes a 96-bit IV; this JWE's is \(iv.count * 8) bits.")
        }
        guard tag.count == 16 else {
            throw ProvisioError(.jweMalformed, "A256GCM has a 128-bit tag; this JWE's is \(tag.count * 8) bits.")
        }

        let header = try Header(json: headerBytes)
        let peer = try header.ephemeralPublicKey()
        let sharedSecret: SharedSecret
        do {
            sharedSecret = try privateKey.sharedSecretFromKeyAgreement(with: peer)
        } catch {
            throw ProvisioError(.jweInvalidEphemeralKey, "Key agreement with the JWE's ephemeral key failed.")
        }
        let key = ConcatKDF.symmetricKey(
            sharedSecret: sharedSecret, algorithmID: JWEEncrypter.encryption, partyUInfo: header.partyUInfo,
            partyVInfo: header.partyVInfo, keyDataLength: 256)

        let plaintext: Data
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
            // The AAD is the header's base64url text as received, not a re-encoding of it.
            plaintext = try AES.GCM.open(box, using: key, authenticating: Data(parts[0].utf8))
        } catch {
            throw ProvisioError(
                .jweAuthenticationFailed, "The JWE does not authenticate under this key (tampered, or meant for another key).")
        }
        return JWEDecrypted(
            algorithm: JWEEncrypter.algorithm, encryption: JWEEncrypter.encryption, keyID: header.keyID,
            contentType: header.contentType, ephemeralPublicKey: peer, protectedHeader: headerBytes, plaintext: plaintext)
    }
}

extension JWEDecrypter {
    /// The protected header, checked for what this decrypter supports.
    private struct Header {
        let keyID: String?
        let contentType: String?
        let partyUInfo: Data
        let partyVInfo: Data
        let epk: [String: Any]?

        init(json: Data) throws {
            guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
                throw ProvisioError(.jweMalformed, "The JWE protected header is not a JSON object.")
            }
            guard let alg = object["alg"] as? String, let enc = object["enc"] as? String else {
                throw ProvisioError(.jweMalformed, "The JWE protected header lacks a string \"alg\" or \"enc\".")
            }
            guard alg == JWEEncrypter.algorithm else {
                throw ProvisioError(
                    .jweUnsupportedAlgorithm, "JWE alg '\(alg.prefix(32))' is not supported; only ECDH-ES is.")
            }
            guard enc == JWEEncrypter.encryption else {
                throw ProvisioError(
                    .jweUnsupportedAlgorithm, "JWE enc '\(enc.prefix(32))' is not supported; only A256GCM is.")
            }
            // We understand no extensions, and RFC 7515 §4.1.11 says a listed one we do not
            // understand makes the JWE invalid. Compression we do not do either.
            guard object["crit"] == nil else {
                throw ProvisioError(.jweUnsupportedAlgorithm, "The JWE lists critical header extensions; none are supported.")
            }
            guard object["zip"] == nil else {
                throw ProvisioError(.jweUnsupportedAlgorithm, "The JWE is compressed (\"zip\"); compression is not supported.")
            }
            keyID = try Self.optionalString(object, "kid")
            contentType = try Self.optionalString(object, "cty")
            partyUInfo = try Self.optionalBytes(object, "apu")
            partyVInfo = try Self.optionalBytes(object, "apv")
            epk = object["epk"] as? [String: Any]
        }

        /// The "epk" JWK as a P-256 key: kty EC, crv P-256, x and y each exactly 32 bytes, on the curve.
        func ephemeralPublicKey() throws -> P256.KeyAgreement.PublicKey {
            guard let epk else {
                throw ProvisioError(.jweInvalidEphemeralKey, "The JWE protected header has no \"epk\" object.")
            }
            guard epk["kty"] as? String == "EC", epk["crv"] as? String == "P-256" else {
                throw ProvisioError(.jweInvalidEphemeralKey, "The JWE's ephemeral key is not an EC key on P-256.")
            }
            guard let x = (epk["x"] as? String).flatMap(Base64URL.decode), x.count == 32,
                let y = (epk["y"] as? String).flatMap(Base64URL.decode), y.count == 32
            else {
                throw ProvisioError(
                    .jweInvalidEphemeralKey, "The JWE's ephemeral key needs 32-byte base64url \"x\" and \"y\" coordinates.")
            }
            do {
                // swift-crypto refuses a point that is not on the curve.
                return try P256.KeyAgreement.PublicKey(x963Representation: [0x04] + x + y)
            } catch {
                throw ProvisioError(.jweInvalidEphemeralKey, "The JWE's ephemeral key is not a point on P-256.")
            }
        }

        private static func optionalString(_ object: [String: Any], _ name: String) throws -> String? {
            guard let value = object[name] else { return nil }
            guard let string = value as? String else {
                throw ProvisioError(.jweMalformed, "The JWE header's \"\(name)\" is not a string.")
            }
            return string
        }

        private static func optionalBytes(_ object: [String: Any], _ name: String) throws -> Data {
            guard let value = try optionalString(object, name) else { return Data() }
            guard let bytes = Base64URL.decode(value) else {
                throw ProvisioError(.jweMalformed, "The JWE header's \"\(name)\" is not unpadded base64url.")
            }
            return bytes
        }
    }
}
