import Crypto
import Foundation
import ProvisioCore
import Testing
import _CryptoExtras

@testable import ProvisioCrypto

@Suite struct OAuth1VerifierTests {
    static func verifier(window: TimeInterval = OAuth1Verifier.defaultWindow) -> OAuth1Verifier {
        OAuth1Verifier(
            consumers: [OAuth1Vectors.shared.requests[0].consumerKey: OAuth1Vectors.publicKey],
            nonceStore: InMemoryOAuth1NonceStore(window: window), window: window)
    }

    @Test(arguments: OAuth1Vectors.shared.requests) func acceptsPythonsHeaderOnce(_ request: OAuth1Vectors.Request) async throws {
        let verifier = Self.verifier()
        let verified = try await verifier.verify(
            authorization: request.authorizationHeader, method: request.method, url: request.url, body: request.body,
            at: request.time.addingTimeInterval(30))
        #expect(
            verified
                == OAuth1VerifiedRequest(consumerKey: request.consumerKey, nonce: request.nonce, timestamp: request.timestamp))
        #expect(
            await OAuth1Vectors.code {
                try await verifier.verify(
                    authorization: request.authorizationHeader, method: request.method, url: request.url, body: request.body,
                    at: request.time)
            } == "oauth_nonce_replayed")
    }

    @Test func refusesEachAlteration() async throws {
        let request = OAuth1Vectors.shared.requests[0]
        func code(
            _ header: String? = nil, method: String? = nil, url: String? = nil, body: Data? = nil, at: Date? = nil,
            verifier: OAuth1Verifier = OAuth1VerifierTests.verifier()
        ) async -> String? {
            await OAuth1Vectors.code {
                try await verifier.verify(
                    authorization: header ?? request.authorizationHeader, method: method ?? request.method,
                    url: url ?? request.url, body: body ?? request.body, at: at ?? request.time)
            }
        }
        let header = request.authorizationHeader
        #expect(await code() == nil)
        #expect(await code(body: Data(request.bodyUTF8.utf8) + Data(" ".utf8)) == "oauth_body_hash_mismatch")
        #expect(await code(method: "PUT") == "oauth_signature_invalid")
        #expect(await code(url: request.url + "?extra=1") == "oauth_signature_invalid")
        #expect(await code(url: request.url.replacingOccurrences(of: "suspend", with: "delete")) == "oauth_signature_invalid")
        #expect(
            await code(header.replacingOccurrences(of: "oauth_nonce=\"", with: "oauth_nonce=\"x")) == "oauth_signature_invalid")
        #expect(await code(at: request.time.addingTimeInterval(301)) == "oauth_timestamp_out_of_window")
        #expect(await code(at: request.time.addingTimeInterval(-301)) == "oauth_timestamp_out_of_window")
        #expect(await code(at: request.time.addingTimeInterval(300)) == nil)
        let stranger = OAuth1Verifier(
            consumers: ["someone-else": OAuth1Vectors.publicKey], nonceStore: InMemoryOAuth1NonceStore())
        #expect(await code(verifier: stranger) == "oauth_consumer_key_unknown")
        let otherKey = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey
        let rotated = OAuth1Verifier(consumers: [request.consumerKey: otherKey], nonceStore: InMemoryOAuth1NonceStore())
        #expect(await code(verifier: rotated) == "oauth_signature_invalid")

        // A signature one bit off.
        let signatureStart = try #require(header.range(of: "oauth_signature=\""))
        var signature = Data(
            base64Encoded: OAuth1PercentEncoding.decode(header[signatureStart.upperBound...].dropLast(), plusIsSpace: false)!)!
        signature[10] ^= 0x01
        let flipped = header[..<signatureStart.upperBound] + OAuth1PercentEncoding.encode(signature.base64EncodedString()) + "\""
        #expect(await code(String(flipped)) == "oauth_signature_invalid")

        // Headers that are not one RSA-SHA256 OAuth header.
        for malformed in [
            "Bearer abc",
            header.replacingOccurrences(of: "RSA-SHA256", with: "HMAC-SHA1"),
            header.replacingOccurrences(of: "oauth_version=\"1.0\"", with: "oauth_version=\"2.0\""),
            header + ",oauth_nonce=\"again\"",
            header.replacingOccurrences(of: "oauth_nonce=", with: "oauth_other="),
            header.replacingOccurrences(of: "oauth_timestamp=\"", with: "oauth_timestamp=\"-"),
            header.replacingOccurrences(of: "oauth_signature=\"", with: "oauth_signature=\"%21"),
            header.replacingOccurrences(of: "oauth_consumer_key=\"", with: "oauth_consumer_key=\"%zz"),
            header.replacingOccurrences(of: "\",", with: ","),
        ] {
            #expect(await code(malformed) == "oauth_header_malformed", "\(malformed)")
        }
    }

    @Test func readsTheHeaderLikeRFC5849Allows() async throws {
        // Scheme in any case, spaces after commas, a realm (not signed), parameters in any order.
        let request = OAuth1Vectors.shared.requests[0]
        let pairs = request.authorizationHeader.dropFirst("OAuth ".count).split(separator: ",").reversed()
        let header = "oauth realm=\"MDES\", " + pairs.joined(separator: ",  ")
        let verified = try await Self.verifier().verify(
            authorization: header, method: request.method, url: request.url, body: request.body, at: request.time)
        #expect(verified.nonce == request.nonce)
    }

    @Test func verifiesWhatTheSignerSigns() async throws {
        let signer = OAuth1Signer(consumerKey: OAuth1Vectors.shared.requests[0].consumerKey, signingKey: OAuth1Vectors.signingKey)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let body = Data(#"{"TokenDeleteRequest":{"TokenUniqueReferences":["DWSPMC1"],"ReasonCode":"L"}}"#.utf8)
        let url = "https://mdes.sandbox.test/mdes/csapi/v2/token/delete?x=%2B1&y=a+b"
        let header = try signer.authorizationHeader(
            method: "POST", url: url, body: body, nonce: OAuth1Signer.makeNonce(), timestamp: 1_800_000_000)
        let verified = try await Self.verifier().verify(authorization: header, method: "POST", url: url, body: body, at: now)
        #expect(verified.timestamp == 1_800_000_000)
    }

    @Test func theNonceStoreForgetsOnlyWhatTheWindowWouldRefuse() async throws {
        let store = InMemoryOAuth1NonceStore(window: 60)
        let start = Date(timeIntervalSince1970: 1000)
        #expect(try await store.recordIfNew(nonce: "a", consumerKey: "c", timestamp: 1000, now: start))
        #expect(try await store.recordIfNew(nonce: "a", consumerKey: "other", timestamp: 1000, now: start))
        #expect(try await !store.recordIfNew(nonce: "a", consumerKey: "c", timestamp: 1000, now: start.addingTimeInterval(60)))
        #expect(try await store.recordIfNew(nonce: "b", consumerKey: "c", timestamp: 1070, now: start.addingTimeInterval(61)))
        #expect(store.count == 1)
    }
}
