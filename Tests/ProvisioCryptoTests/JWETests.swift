import Crypto
import Foundation
import ProvisioCore
import Testing

@testable import ProvisioCrypto

/// JWE with ECDH-ES + A256GCM: the RFC 7518 Appendix C Concat KDF vector, known answers, round
/// trips, the header's shape, and every way a token must be refused.
@Suite struct JWETests {
    // RFC 7518 Appendix C: Alice's ephemeral key and Bob's key.
    static let aliceX = "gI0GAILBdu7T53akrFmMyGcsF3n5dO7MmwNBHKW5SV0"
    static let aliceY = "SLW_xSffzlPWrHEVI30DHM_4egVwt3NQqeUD7nMFpps"
    static let aliceD = "0_NxaRPUMQoAJt50Gz8YiTr8gRTwyEaCumd-MToTmIo"
    static let bobX = "weNJy2HscCSM6AEDTDg04biOvhFhyyWvOHQfeF_PxMQ"
    static let bobY = "e8lnCO-AlStT-NJVX-crhB7QRYhiix03illJOVAOyck"
    static let bobD = "VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw"
    /// Z as the appendix lists it, in decimal.
    static let rfcZ: [UInt8] = [
        158, 86, 217, 29, 129, 113, 53, 211, 114, 131, 66, 131, 191, 132, 38, 156,
        251, 49, 110, 163, 218, 128, 106, 72, 246, 218, 167, 121, 140, 254, 144, 196,
    ]

    static func key(_ d: String) throws -> P256.KeyAgreement.PrivateKey {
        try P256.KeyAgreement.PrivateKey(rawRepresentation: #require(Base64URL.decode(d)))
    }
    var alice: P256.KeyAgreement.PrivateKey { get throws { try Self.key(Self.aliceD) } }
    var bob: P256.KeyAgreement.PrivateKey { get throws { try Self.key(Self.bobD) } }

    static func hex(_ key: SymmetricKey) -> String { key.withUnsafeBytes { BinaryText.lowercaseHex($0) } }

    // MARK: Concat KDF

    @Test func concatKDFReproducesRFC7518AppendixC() throws {
        let alice = try alice, bob = try bob
        // The keys are the appendix's: their public halves are its x and y.
        #expect(Base64URL.encode(alice.publicKey.rawRepresentation.prefix(32)) == Self.aliceX)
        #expect(Base64URL.encode(alice.publicKey.rawRepresentation.suffix(32)) == Self.aliceY)
        #expect(Base64URL.encode(bob.publicKey.rawRepresentation.prefix(32)) == Self.bobX)
        #expect(Base64URL.encode(bob.publicKey.rawRepresentation.suffix(32)) == Self.bobY)

        let z = try alice.sharedSecretFromKeyAgreement(with: bob.publicKey)
        #expect(z.withUnsafeBytes { Array($0) } == Self.rfcZ)
        // Bob, on his side, agrees the same Z.
        #expect(try bob.sharedSecretFromKeyAgreement(with: alice.publicKey).withUnsafeBytes { Array($0) } == Self.rfcZ)

        let derived = ConcatKDF.symmetricKey(
            sharedSecret: z, algorithmID: "A128GCM", partyUInfo: Data("Alice".utf8), partyVInfo: Data("Bob".utf8),
            keyDataLength: 128)
        #expect(derived.bitCount == 128)
        #expect(derived.withUnsafeBytes { Base64URL.encode(Array($0)) } == "VqqN6vgjbSBcIijNcacQGg")

        // The raw-bytes entry point gives the same key from the appendix's listed Z.
        let fromBytes = Self.rfcZ.withUnsafeBytes {
            ConcatKDF.symmetricKey(
                sharedSecretBytes: $0, algorithmID: "A128GCM", partyUInfo: Data("Alice".utf8),
                partyVInfo: Data("Bob".utf8), keyDataLength: 128)
        }
        #expect(fromBytes == derived)
    }

    @Test func concatKDFBindsEveryInput() throws {
        let z = try alice.sharedSecretFromKeyAgreement(with: bob.publicKey)
        func derive(_ alg: String, _ apu: String, _ apv: String, _ bits: Int) -> String {
            Self.hex(
                ConcatKDF.symmetricKey(
                    sharedSecret: z, algorithmID: alg, partyUInfo: Data(apu.utf8), partyVInfo: Data(apv.utf8), keyDataLength: bits
                ))
        }
        // Independently computed (Python `hashlib`) for this Z, "A256GCM", empty apu/apv.
        #expect(derive("A256GCM", "", "", 256) == "b27e1ae45b86035f70ffd584b87a3553bd5f156ec0b754cd4d0f74f6562d3535")
        // Two rounds (counter 1 then 2), truncated to 48 bytes.
        #expect(
            derive("A256GCM", "", "", 384)
                == "45b60597cbcdaa743b6ce29d42140ae8d2cca2de3aba520ff022d4983f0f2593eee97ed793afd10c154f26a174e89d17")
        // keydatalen is hashed in, so a 128-bit key is not a prefix of the 256-bit one.
        #expect(!derive("A256GCM", "", "", 256).hasPrefix(derive("A256GCM", "", "", 128)))
        // The length prefixes keep field boundaries apart: "Al"+"iceBob" ≠ "Alice"+"Bob".
        #expect(derive("A128GCM", "Alice", "Bob", 128) != derive("A128GCM", "Al", "iceBob", 128))
        #expect(derive("A128GCM", "Alice", "Bob", 128) != derive("A128GCM", "Bob", "Alice", 128))
        #expect(derive("A128GCM", "Alice", "Bob", 128) != derive("A256GCM", "Alice", "Bob", 128))
    }

    // MARK: Known answers

    /// Made with an independent implementation (Python `cryptography`'s ECDH and AESGCM, `hashlib`
    /// for the KDF): ephemeral key = Alice's, recipient = Bob's, the IV below.
    static let knownAnswerIV = "a1b2c3d4e5f60718293a4b5c"
    static let knownAnswerPlaintext = #"{"card":"opaque","v":1}"#
    static let knownAnswerJWE =
        "eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTI1NkdDTSIsImVwayI6eyJrdHkiOiJFQyIsImNydiI6IlAtMjU2IiwieCI6ImdJMEdBSUxCZHU3VDUzYWtyRm1NeUdjc0YzbjVkTzdNbXdOQkhLVzVTVjAiLCJ5IjoiU0xXX3hTZmZ6bFBXckhFVkkzMERITV80ZWdWd3QzTlFxZVVEN25NRnBwcyJ9LCJraWQiOiJuZXR3b3JrLWtleS0yMDI1IiwiY3R5IjoiYXBwbGljYXRpb24vanNvbiJ9"
        + "..obLD1OX2BxgpOktc.NRbtMrejXBMCVK_WbVDAM1IExvXBWIc.gcswZkF4RQT0GE_LQ81Ixw"

    @Test func pinnedKeyAndIVReproduceTheKnownAnswer() throws {
        let encrypter = JWEEncrypter(recipient: try bob.publicKey, keyID: "network-key-2025")
        let compact = try encrypter.encrypt(
            Data(Self.knownAnswerPlaintext.utf8), contentType: "application/json", ephemeralKey: alice,
            iv: AES.GCM.Nonce(data: #require(BinaryText.decodeHex(Self.knownAnswerIV))))
        #expect(compact == Self.knownAnswerJWE)

        let opened = try JWEDecrypter(privateKey: bob).decrypt(Self.knownAnswerJWE)
        #expect(String(decoding: opened.plaintext, as: UTF8.self) == Self.knownAnswerPlaintext)
        #expect(opened.keyID == "network-key-2025")
        #expect(opened.contentType == "application/json")
        #expect(opened.ephemeralPublicKey.rawRepresentation == (try alice.publicKey.rawRepresentation))
    }

    @Test func decryptsAnIndependentTokenWithOtherMemberOrderAndApuApv() throws {
        // Python's json.dumps: members in another order, spaces after separators, apu "Alice" and
        // apv "Bob" hashed into the KDF. Header:
        // {"enc": "A256GCM", "apu": "QWxpY2U", "apv": "Qm9i", "epk": {…Alice…}, "alg": "ECDH-ES"}
        let token =
            "eyJlbmMiOiAiQTI1NkdDTSIsICJhcHUiOiAiUVd4cFkyVSIsICJhcHYiOiAiUW05aSIsICJlcGsiOiB7InkiOiAiU0xXX3hTZmZ6bFBXckhFVkkzMERITV80ZWdWd3QzTlFxZVVEN25NRnBwcyIsICJ4IjogImdJMEdBSUxCZHU3VDUzYWtyRm1NeUdjc0YzbjVkTzdNbXdOQkhLVzVTVjAiLCAiY3J2IjogIlAtMjU2IiwgImt0eSI6ICJFQyJ9LCAiYWxnIjogIkVDREgtRVMifQ"
            + "..Dw4NDAsKCQgHBgUE.deSrXMqdis6ta9lxd3xsvAEi1Ld5eulOLQ.cShyl1gv7QZ1xli_cBcm6Q"
        let opened = try JWEDecrypter(privateKey: bob).decrypt(token)
        #expect(String(decoding: opened.plaintext, as: UTF8.self) == "apu and apv are hashed in")
        #expect(opened.keyID == nil)
        #expect(opened.contentType == nil)

        // Dropping apu/apv (and so deriving another key) must not still open it.
        var header = try headerJSON(token)
        header = header.replacingOccurrences(of: #""apu": "QWxpY2U", "apv": "Qm9i", "#, with: "")
        let withoutApuApv = try replacingHeader(of: token, with: header)
        #expect(code(of: withoutApuApv, JWEDecrypter(privateKey: try bob)) == .jweAuthenticationFailed)
    }

    // MARK: Round trips and the header

    @Test(arguments: [0, 1, 15, 16, 17, 255, 4096, 65_537])
    func roundTrips(length: Int) throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let plaintext = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let compact = try JWEEncrypter(recipient: recipient.publicKey, keyID: "k1").encrypt(plaintext, contentType: "card")
        let opened = try JWEDecrypter(privateKey: recipient).decrypt(compact)
        #expect(opened.plaintext == plaintext)
        #expect(opened.algorithm == "ECDH-ES")
        #expect(opened.encryption == "A256GCM")
        #expect(opened.keyID == "k1")
        #expect(opened.contentType == "card")
        #expect(Base64URL.decode(parts(compact)[3])?.count == length)
    }

    @Test func headerCarriesAlgEncEpkKidAndCtyAndTheEncryptedKeyIsEmpty() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let compact = try JWEEncrypter(recipient: recipient.publicKey, keyID: "mc-2025-01")
            .encrypt(Data("opaque".utf8), contentType: "JSON")
        let segments = parts(compact)
        #expect(segments.count == 5)
        #expect(segments[1] == "")
        #expect(Base64URL.decode(segments[2])?.count == 12)
        #expect(Base64URL.decode(segments[4])?.count == 16)
        #expect(!compact.contains("="))

        let header = try headerObject(compact)
        #expect(Set(header.keys) == ["alg", "enc", "epk", "kid", "cty"])
        #expect(header["alg"] as? String == "ECDH-ES")
        #expect(header["enc"] as? String == "A256GCM")
        #expect(header["kid"] as? String == "mc-2025-01")
        #expect(header["cty"] as? String == "JSON")
        let epk = try #require(header["epk"] as? [String: Any])
        #expect(Set(epk.keys) == ["kty", "crv", "x", "y"])  // never "d"
        #expect(epk["kty"] as? String == "EC")
        #expect(epk["crv"] as? String == "P-256")
        let x = try #require((epk["x"] as? String).flatMap { Base64URL.decode($0) })
        let y = try #require((epk["y"] as? String).flatMap { Base64URL.decode($0) })
        #expect(x.count == 32 && y.count == 32)
        let opened = try JWEDecrypter(privateKey: recipient).decrypt(compact)
        #expect(opened.ephemeralPublicKey.rawRepresentation == x + y)
        #expect(opened.protectedHeader == Base64URL.decode(segments[0]))

        // Without kid and cty the header has neither.
        let bare = try JWEEncrypter(recipient: recipient.publicKey).encrypt(Data("opaque".utf8))
        #expect(Set(try headerObject(bare).keys) == ["alg", "enc", "epk"])
        #expect(try JWEDecrypter(privateKey: recipient).decrypt(bare).keyID == nil)
    }

    @Test func kidAndCtyAreEscapedAsJSON() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let awkward = "a\"b\\c/d\n\t\u{01}é🔑"
        let compact = try JWEEncrypter(recipient: recipient.publicKey, keyID: awkward).encrypt(Data(), contentType: awkward)
        #expect(try headerObject(compact)["kid"] as? String == awkward)
        let opened = try JWEDecrypter(privateKey: recipient).decrypt(compact)
        #expect(opened.keyID == awkward)
        #expect(opened.contentType == awkward)
        #expect(opened.plaintext.isEmpty)
    }

    @Test func everyCallDrawsAFreshEphemeralKeyAndIV() throws {
        let encrypter = JWEEncrypter(recipient: try bob.publicKey)
        let first = try parts(encrypter.encrypt(Data("same".utf8)))
        let second = try parts(encrypter.encrypt(Data("same".utf8)))
        #expect(first[0] != second[0])  // the epk differs
        #expect(first[2] != second[2])
        #expect(first[3] != second[3])
    }

    // MARK: Tampering

    @Test(arguments: [2, 3, 4])
    func flippingAnyByteOfIVCiphertextOrTagFailsAuthentication(segment: Int) throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let compact = try JWEEncrypter(recipient: recipient.publicKey).encrypt(Data("the opaque payment card".utf8))
        let decrypter = JWEDecrypter(privateKey: recipient)
        #expect(try decrypter.decrypt(compact).plaintext == Data("the opaque payment card".utf8))

        let bytes = try #require(Base64URL.decode(parts(compact)[segment]))
        #expect(bytes.count >= 12)
        for index in bytes.indices {
            for mask: UInt8 in [0x01, 0x80] {
                var tampered = bytes
                tampered[index] ^= mask
                let token = try replacing(segment, of: compact, with: Base64URL.encode(tampered))
                #expect(code(of: token, decrypter) == .jweAuthenticationFailed, "segment \(segment), byte \(index)")
            }
        }
    }

    @Test func flippingAnyByteOfTheHeaderIsRefusedWithTheRightCode() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let compact = try JWEEncrypter(recipient: recipient.publicKey, keyID: "network-key-7")
            .encrypt(Data("card".utf8), contentType: "application/json")
        let decrypter = JWEDecrypter(privateKey: recipient)
        let header = try #require(Base64URL.decode(parts(compact)[0]))
        // Compared as sorted-key JSON: Linux Foundation has no NSDictionary bridging to lean on.
        func canonical(_ epk: Any?) -> Data? {
            guard let epk = epk as? [String: Any] else { return nil }
            return try? JSONSerialization.data(withJSONObject: epk, options: .sortedKeys)
        }
        let originalEPK = try #require(canonical(headerObject(compact)["epk"]))

        var seen = [ProvisioError.Code: Int]()
        for index in header.indices {
            var tampered = header
            tampered[index] ^= 0x01
            // What the header now says decides which check must catch it, in the documented order.
            let expected: ProvisioError.Code
            let object = try? JSONSerialization.jsonObject(with: tampered) as? [String: Any]
            if let object, let alg = object["alg"] as? String, let enc = object["enc"] as? String {
                if alg != "ECDH-ES" || enc != "A256GCM" {
                    expected = .jweUnsupportedAlgorithm
                } else if canonical(object["epk"]) != originalEPK {
                    expected = .jweInvalidEphemeralKey
                } else {
                    expected = .jweAuthenticationFailed  // kid, cty, or a key name only the AAD notices
                }
            } else {
                expected = .jweMalformed
            }
            let token = try replacing(0, of: compact, with: Base64URL.encode(tampered))
            let actual = code(of: token, decrypter)
            #expect(actual == expected, "header byte \(index) ('\(UnicodeScalar(header[index]))')")
            seen[expected, default: 0] += 1
        }
        // Every check was reached by some flip.
        #expect(seen.keys.count == 4, "\(seen)")
    }

    @Test func editingHeaderValuesIsCaughtByTheRightCheck() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let compact = try JWEEncrypter(recipient: recipient.publicKey, keyID: "key-1").encrypt(Data("card".utf8))
        let decrypter = JWEDecrypter(privateKey: recipient)
        let json = try headerJSON(compact)

        // Still well-formed, only the kid differs: the AAD catches it.
        let otherKid = try replacingHeader(of: compact, with: json.replacingOccurrences(of: "key-1", with: "key-2"))
        #expect(code(of: otherKid, decrypter) == .jweAuthenticationFailed)
        // An added member the decrypter ignores is still authenticated.
        let added = try replacingHeader(of: compact, with: String(json.dropLast()) + #","typ":"JWE"}"#)
        #expect(code(of: added, decrypter) == .jweAuthenticationFailed)
        // Another valid P-256 point as epk: a different Z, so a different key.
        let other = P256.KeyAgreement.PrivateKey().publicKey.rawRepresentation
        let epk = try #require(headerObject(compact)["epk"] as? [String: Any])
        let swapped =
            json
            .replacingOccurrences(of: try #require(epk["x"] as? String), with: Base64URL.encode(other.prefix(32)))
            .replacingOccurrences(of: try #require(epk["y"] as? String), with: Base64URL.encode(other.suffix(32)))
        #expect(code(of: try replacingHeader(of: compact, with: swapped), decrypter) == .jweAuthenticationFailed)
    }

    // MARK: Refusals

    @Test(arguments: [
        #""alg":"ECDH-ES+A256KW","enc":"A256GCM""#, #""alg":"RSA-OAEP-256","enc":"A256GCM""#,
        #""alg":"dir","enc":"A256GCM""#, #""alg":"none","enc":"A256GCM""#, #""alg":"ecdh-es","enc":"A256GCM""#,
        #""alg":"ECDH-ES","enc":"A128GCM""#, #""alg":"ECDH-ES","enc":"A192GCM""#,
        #""alg":"ECDH-ES","enc":"A256CBC-HS512""#, #""alg":"ECDH-ES","enc":"a256gcm""#,
        #""alg":"ECDH-ES","enc":"A256GCM","crit":["exp"],"exp":1"#, #""alg":"ECDH-ES","enc":"A256GCM","zip":"DEF""#,
    ])
    func unsupportedAlgorithmsAreRefused(algorithms: String) throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let decrypter = JWEDecrypter(privateKey: recipient)
        let compact = try JWEEncrypter(recipient: recipient.publicKey).encrypt(Data("card".utf8))
        let token = try replacingHeader(of: compact, with: "{\(algorithms),\"epk\":\(epkJSON(compact))}")
        #expect(code(of: token, decrypter) == .jweUnsupportedAlgorithm)
    }

    @Test func malformedCompactStringsAreRefused() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let decrypter = JWEDecrypter(privateKey: recipient)
        let good = try JWEEncrypter(recipient: recipient.publicKey).encrypt(Data("card".utf8))
        #expect(try decrypter.decrypt(good).plaintext == Data("card".utf8))
        let p = parts(good)
        let epk = try epkJSON(good)
        func header(_ json: String) throws -> String { try replacingHeader(of: good, with: json) }

        let cases: [(String, String)] = [
            ("empty", ""),
            ("four dots only", "...."),
            ("three parts", [p[0], p[2], p[3]].joined(separator: ".")),
            ("four parts", [p[0], p[1], p[2], p[3]].joined(separator: ".")),
            ("six parts", (p + [p[4]]).joined(separator: ".")),
            ("encrypted key present", [p[0], "AAAA", p[2], p[3], p[4]].joined(separator: ".")),
            ("empty header", ["", p[1], p[2], p[3], p[4]].joined(separator: ".")),
            ("header not base64url", ["!!!" + p[0], p[1], p[2], p[3], p[4]].joined(separator: ".")),
            ("header padded", [p[0] + "=", p[1], p[2], p[3], p[4]].joined(separator: ".")),
            ("header not JSON", try header("alg=ECDH-ES")),
            ("header a JSON array", try header(#"["ECDH-ES","A256GCM"]"#)),
            ("header a JSON string", try header(#""ECDH-ES""#)),
            ("no alg", try header("{\"enc\":\"A256GCM\",\"epk\":\(epk)}")),
            ("no enc", try header("{\"alg\":\"ECDH-ES\",\"epk\":\(epk)}")),
            ("alg not a string", try header("{\"alg\":1,\"enc\":\"A256GCM\",\"epk\":\(epk)}")),
            ("kid not a string", try header("{\"alg\":\"ECDH-ES\",\"enc\":\"A256GCM\",\"epk\":\(epk),\"kid\":7}")),
            ("apu not base64url", try header("{\"alg\":\"ECDH-ES\",\"enc\":\"A256GCM\",\"epk\":\(epk),\"apu\":\"a+b=\"}")),
            ("IV of 8 bytes", try replacing(2, of: good, with: Base64URL.encode(Data(count: 8)))),
            ("IV of 16 bytes", try replacing(2, of: good, with: Base64URL.encode(Data(count: 16)))),
            ("IV empty", try replacing(2, of: good, with: "")),
            ("tag of 15 bytes", try replacing(4, of: good, with: Base64URL.encode(Data(count: 15)))),
            ("tag empty", try replacing(4, of: good, with: "")),
            ("ciphertext with a space", try replacing(3, of: good, with: p[3] + " ")),
            ("trailing newline", good + "\n"),
        ]
        for (name, token) in cases {
            #expect(code(of: token, decrypter) == .jweMalformed, "\(name)")
        }

        // The standard alphabet is refused even though BinaryText would read it. A run of "?"
        // (0x3F) always holds an aligned "???", which base64 writes as "Pz8/".
        let json = "{\"alg\":\"ECDH-ES\",\"enc\":\"A256GCM\",\"epk\":\(epk),\"kid\":\"?????\"}"
        let standard = Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        #expect(standard.contains("/"))
        #expect(BinaryText.decodeBase64(standard) == Data(json.utf8))
        #expect(code(of: try replacing(0, of: good, with: standard), decrypter) == .jweMalformed)
    }

    @Test func ephemeralKeysThatAreNotP256PointsAreRefused() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let decrypter = JWEDecrypter(privateKey: recipient)
        let good = try JWEEncrypter(recipient: recipient.publicKey).encrypt(Data("card".utf8))
        let point = try #require(headerObject(good)["epk"] as? [String: Any])
        let x = try #require(point["x"] as? String), y = try #require(point["y"] as? String)
        let xBytes = try #require(Base64URL.decode(x)), yBytes = try #require(Base64URL.decode(y))
        var offCurveY = yBytes
        offCurveY[offCurveY.startIndex + 31] ^= 0x01
        let fields: [(String, String)] = [
            ("no epk", ""),
            ("epk not an object", #","epk":"EC""#),
            ("OKP key", #","epk":{"kty":"OKP","crv":"X25519","x":"\#(x)"}"#),
            ("P-384", #","epk":{"kty":"EC","crv":"P-384","x":"\#(x)","y":"\#(y)"}"#),
            ("no kty", #","epk":{"crv":"P-256","x":"\#(x)","y":"\#(y)"}"#),
            ("no y", #","epk":{"kty":"EC","crv":"P-256","x":"\#(x)"}"#),
            ("x of 31 bytes", #","epk":{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(xBytes.dropFirst()))","y":"\#(y)"}"#),
            ("y of 33 bytes", #","epk":{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(Base64URL.encode(Data([0]) + yBytes))"}"#),
            ("x not base64url", #","epk":{"kty":"EC","crv":"P-256","x":"\#(x.dropLast())+","y":"\#(y)"}"#),
            ("x a number", #","epk":{"kty":"EC","crv":"P-256","x":1,"y":"\#(y)"}"#),
            ("off the curve", #","epk":{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(Base64URL.encode(offCurveY))"}"#),
            (
                "all zeros",
                #","epk":{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(Data(count: 32)))","y":"\#(Base64URL.encode(Data(count: 32)))"}"#
            ),
        ]
        for (name, epk) in fields {
            let token = try replacingHeader(of: good, with: #"{"alg":"ECDH-ES","enc":"A256GCM"\#(epk)}"#)
            #expect(code(of: token, decrypter) == .jweInvalidEphemeralKey, "\(name)")
        }
    }

    @Test func anotherRecipientKeyCannotDecrypt() throws {
        let intended = P256.KeyAgreement.PrivateKey()
        let compact = try JWEEncrypter(recipient: intended.publicKey, keyID: "k").encrypt(Data("for one key only".utf8))
        #expect(try JWEDecrypter(privateKey: intended).decrypt(compact).plaintext == Data("for one key only".utf8))
        for _ in 0..<3 {
            #expect(code(of: compact, JWEDecrypter(privateKey: P256.KeyAgreement.PrivateKey())) == .jweAuthenticationFailed)
        }
        // The known-answer token is Bob's; Alice cannot open it.
        #expect(code(of: Self.knownAnswerJWE, JWEDecrypter(privateKey: try alice)) == .jweAuthenticationFailed)
    }

    // MARK: Base64url

    @Test func base64URLIsUnpaddedURLSafeAndCanonical() throws {
        for length in 0...40 {
            let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: 0xFB &+ $0 &* 13) })
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
        }
        #expect(Base64URL.encode(Data([0xFB, 0xFF])) == "-_8")
        #expect(Base64URL.decode("QQ") == Data("A".utf8))
        for refused in ["QR", "QQ==", "+/8", "Q", "QQ QQ", "QQ\n"] {
            #expect(Base64URL.decode(refused) == nil, "\(refused)")
        }
    }

    // MARK: Helpers

    func parts(_ compact: String) -> [String] {
        compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    func replacing(_ segment: Int, of compact: String, with text: String) throws -> String {
        var segments = parts(compact)
        segments[segment] = text
        return segments.joined(separator: ".")
    }

    func replacingHeader(of compact: String, with json: String) throws -> String {
        try replacing(0, of: compact, with: Base64URL.encode(Data(json.utf8)))
    }

    func headerJSON(_ compact: String) throws -> String {
        let bytes = try #require(Base64URL.decode(parts(compact)[0]))
        return try #require(String(data: bytes, encoding: .utf8))
    }

    func headerObject(_ compact: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(headerJSON(compact).utf8)) as? [String: Any])
    }

    /// The header's "epk" member, as the encrypter wrote it.
    func epkJSON(_ compact: String) throws -> String {
        let json = try headerJSON(compact)
        let start = try #require(json.range(of: #""epk":"#)).upperBound
        let end = try #require(json[start...].firstIndex(of: "}"))
        return String(json[start...end])
    }

    /// The code `decrypt` refused with; records an issue (and gives nil) if it did not refuse.
    func code(of compact: String, _ decrypter: JWEDecrypter, sourceLocation: SourceLocation = #_sourceLocation)
        -> ProvisioError.Code?
    {
        (#expect(throws: ProvisioError.self, sourceLocation: sourceLocation) { try decrypter.decrypt(compact) })?.code
    }
}
