import Crypto
import Foundation
import ProvisioCore
import Testing
import _CryptoExtras

@testable import ProvisioCrypto

/// The signer against Python's signatures. RSASSA-PKCS1-v1_5 is deterministic, so the same key,
/// request, nonce and timestamp must give Python's header byte for byte.
@Suite struct OAuth1SignerTests {
    @Test(arguments: OAuth1Vectors.shared.requests) func reproducesPythonsHeader(_ request: OAuth1Vectors.Request) throws {
        let signer = OAuth1Signer(consumerKey: request.consumerKey, signingKey: OAuth1Vectors.signingKey)
        #expect(OAuth1Signer.bodyHash(request.body) == request.bodyHash)
        let parameters: [(name: String, value: String)] = [
            ("oauth_body_hash", request.bodyHash), ("oauth_consumer_key", request.consumerKey),
            ("oauth_nonce", request.nonce), ("oauth_signature_method", "RSA-SHA256"),
            ("oauth_timestamp", String(request.timestamp)), ("oauth_version", "1.0"),
        ]
        let components = try OAuth1SignatureBaseString.components(request.url)
        #expect(
            OAuth1SignatureBaseString.normalizedParameters(try OAuth1SignatureBaseString.queryParameters(components) + parameters)
                == request.normalizedParameters)
        #expect(
            try OAuth1SignatureBaseString.make(method: request.method, url: request.url, parameters: parameters)
                == request.signatureBaseString)
        let header = try signer.authorizationHeader(
            method: request.method, url: request.url, body: request.body, nonce: request.nonce, timestamp: request.timestamp)
        #expect(header == request.authorizationHeader)
    }

    @Test func theEmptyBodyHasTheSHA256OfNothing() {
        #expect(OAuth1Signer.bodyHash(Data()) == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
    }

    @Test func noncesAreFreshAndTheSignatureCoversThem() throws {
        let first = OAuth1Signer.makeNonce()
        #expect(first.count == 32 && first != OAuth1Signer.makeNonce())
        let signer = OAuth1Signer(consumerKey: "ck", signingKey: OAuth1Vectors.signingKey)
        let a = try signer.authorizationHeader(
            method: "POST", url: "https://x.test/p", body: Data("{}".utf8), nonce: "n1", timestamp: 1)
        let b = try signer.authorizationHeader(
            method: "POST", url: "https://x.test/p", body: Data("{}".utf8), nonce: "n2", timestamp: 1)
        #expect(a != b)
        #expect(
            MDESVectors.code {
                try signer.authorizationHeader(method: "POST", url: "https://x.test/p", body: Data(), nonce: "", timestamp: 1)
            } == "oauth_request_invalid")
    }
}
