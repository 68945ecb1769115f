import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto
import Testing
import _CryptoExtras

@testable import ProvisioSandbox

/// The sandbox's own OAuth 1.0a verifier, written from RFC 5849 and the body-hash extension,
/// against two signers it shares no code with: Python's (the known vectors of
/// Tools/vectors/mdes_oauth_vectors.py) and Provisio's `OAuth1Signer`.
@Suite struct SandboxOAuthVerifierTests {
    static let vectorVerifier = try! SandboxOAuthVerifier(publicKeyPEM: OAuth1Vectors.shared.keys[0].publicKeySPKIPEM)

    @Test(arguments: OAuth1Vectors.shared.requests) func acceptsPythonsVectors(_ request: OAuth1Vectors.Request) throws {
        let verified = try Self.vectorVerifier.verify(
            method: request.method, url: request.url, authorization: request.authorizationHeader, body: request.body,
            now: request.time)
        #expect(verified.consumerKey == request.consumerKey && verified.nonce == request.nonce)
        #expect(verified.timestamp == request.timestamp)

        // The same base string as Python's, built from the header the sandbox parsed.
        let parameters = try #require(OAuthAuthorizationHeader(request.authorizationHeader)).parameters
            .filter { $0.key != "oauth_signature" }.map { ($0.key, $0.value) }
        let components = try #require(URLComponents(string: request.url))
        let base = try #require(SandboxOAuthVerifier.baseURL(components))
        let query = try #require(SandboxOAuthVerifier.queryParameters(components.percentEncodedQuery))
        #expect(
            SandboxOAuthVerifier.signatureBaseString(method: request.method, baseURL: base, parameters: parameters + query)
                == request.signatureBaseString)
    }

    @Test func acceptsProvisiosSignerAndRefusesEachAlteration() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let signer = OAuth1Signer(consumerKey: "provisio-consumer/1", signingKey: key)
        let verifier = try SandboxOAuthVerifier(publicKeyPEM: key.publicKey.pemRepresentation, consumerKey: "provisio-consumer/1")
        let url = "http://127.0.0.1:8090/mdes/csapi/v2/token/suspend"
        let body = Data(#"{"TokenSuspendRequest":{"TokenUniqueReference":"DSBXMC0123","ReasonCode":"Z"}}"#.utf8)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try signer.authorizationHeader(
            method: "POST", url: url, body: body, nonce: OAuth1Signer.makeNonce(), timestamp: 1_800_000_000)

        func refusal(
            method: String = "POST", url: String = url, header: String? = header, body: Data = body, now: Date = now,
            verifier: SandboxOAuthVerifier = verifier
        ) -> String? {
            do {
                _ = try verifier.verify(method: method, url: url, authorization: header, body: body, now: now)
                return nil
            } catch let error as ProvisioError {
                return error.code.rawValue
            } catch {
                return "unexpected: \(error)"
            }
        }
        let invalid = "sandbox_oauth_signature_invalid"
        #expect(refusal() == nil)
        #expect(refusal(now: now.addingTimeInterval(300)) == nil)
        #expect(refusal(body: body + Data(" ".utf8)) == invalid)
        #expect(refusal(method: "PUT") == invalid)
        #expect(refusal(url: url.replacingOccurrences(of: "suspend", with: "delete")) == invalid)
        #expect(refusal(url: url + "?extra=1") == invalid)
        #expect(refusal(url: url.replacingOccurrences(of: "8090", with: "8091")) == invalid)
        #expect(refusal(header: nil) == invalid)
        #expect(refusal(header: "Bearer sbx_key") == invalid)
        #expect(refusal(header: header.replacingOccurrences(of: "RSA-SHA256", with: "HMAC-SHA1")) == invalid)
        #expect(refusal(header: header.replacingOccurrences(of: "oauth_nonce=\"", with: "oauth_nonce=\"x")) == invalid)
        #expect(refusal(now: now.addingTimeInterval(301)) == invalid)
        #expect(refusal(now: now.addingTimeInterval(-301)) == invalid)
        let stranger = try SandboxOAuthVerifier(publicKeyPEM: key.publicKey.pemRepresentation, consumerKey: "someone-else")
        #expect(refusal(verifier: stranger) == invalid)
        let otherKey = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey.pemRepresentation
        #expect(refusal(verifier: try SandboxOAuthVerifier(publicKeyPEM: otherKey)) == invalid)
        // Scheme and host are case-insensitive, a default port is dropped (RFC 5849 §3.4.1.2).
        #expect(refusal(url: url.replacingOccurrences(of: "http://", with: "HTTP://")) == nil)
    }

    @Test func theNonceLedgerAdmitsANonceOnce() async throws {
        let ledger = OAuthNonceLedger()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let verified = SandboxOAuthVerifier.Verified(consumerKey: "c", nonce: "n", timestamp: 1_800_000_000)
        #expect(await ledger.admit(verified, now: now))
        #expect(await !ledger.admit(verified, now: now.addingTimeInterval(10)))
        #expect(await ledger.admit(.init(consumerKey: "c", nonce: "m", timestamp: 1_800_000_000), now: now))
    }

    @Test func percentEncodingFollowsRFC3986() {
        #expect(OAuthPercentEncoding.encode("a-b._~c d/é+") == "a-b._~c%20d%2F%C3%A9%2B")
        #expect(OAuthPercentEncoding.decode("a%2Fb%3D") == "a/b=")
        #expect(OAuthPercentEncoding.decode("%zz") == nil)
    }
}
