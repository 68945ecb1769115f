import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import ProvisioCore
import ProvisioCrypto
import ProvisioHTTP
import ProvisioSandbox
import ProvisioSandboxServer
import Testing
import _CryptoExtras

/// The sandbox's MDES Customer Service API (`sandbox serve --network mdes`) as the issuer meets
/// it: a request Provisio's `OAuth1Signer` signed gets through the gateway to the application; an
/// unsigned, wrongly signed, altered or replayed one is refused in MDES's error shape, `Gateway`.
@Suite struct SandboxMDESCustomerServiceTests {
    static let path = "/mdes/csapi/v2/token/suspend"
    static let body = Data(
        #"{"TokenSuspendRequest":{"TokenUniqueReference":"DSBXMC000000000000000000000000000000000000000000","ReasonCode":"L","AuditInfo":{"UserId":"op_1","UserName":"Provisio API key","Organization":"Demo Bank"}}}"#
            .utf8)

    struct Answer {
        var status: Int
        var error: [String: Any]?
    }

    @Test func refusesWhatIsNotSignedByTheIssuerAndPassesWhatIs() async throws {
        let issuerKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let signer = OAuth1Signer(consumerKey: "demo-bank", signingKey: issuerKey)
        let verifier = try SandboxOAuthVerifier(publicKeyPEM: issuerKey.publicKey.pemRepresentation, consumerKey: "demo-bank")
        try await Self.withSandbox(verifier: verifier) { base in
            let url = base + Self.path
            func sign(_ signer: OAuth1Signer, body: Data = Self.body) throws -> String {
                try signer.authorizationHeader(
                    method: "POST", url: url, body: body, nonce: OAuth1Signer.makeNonce(),
                    timestamp: Int64(Date().timeIntervalSince1970))
            }

            let unsigned = try await Self.post(url, body: Self.body, authorization: nil)
            #expect(unsigned.status == 401 && unsigned.error?["Source"] as? String == "Gateway")
            #expect(unsigned.error?["ReasonCode"] as? String == "AUTHENTICATION_FAILED")

            let stranger = OAuth1Signer(consumerKey: "demo-bank", signingKey: try _RSA.Signing.PrivateKey(keySize: .bits2048))
            let wrongKey = try await Self.post(url, body: Self.body, authorization: sign(stranger))
            #expect(wrongKey.status == 401)

            let altered = Data(String(decoding: Self.body, as: UTF8.self).replacingOccurrences(of: "\"L\"", with: "\"S\"").utf8)
            let alteredAnswer = try await Self.post(url, body: altered, authorization: sign(signer))
            #expect(alteredAnswer.status == 401)

            let otherConsumer = OAuth1Signer(consumerKey: "someone-else", signingKey: issuerKey)
            let wrongConsumer = try await Self.post(url, body: Self.body, authorization: sign(otherConsumer))
            #expect(wrongConsumer.status == 401)

            // Signed by the issuer: the gateway lets it through, the application answers (the
            // token is unknown), in the same shape with `INPUT`.
            let header = try sign(signer)
            let signed = try await Self.post(url, body: Self.body, authorization: header)
            #expect(signed.status == 400 && signed.error?["Source"] as? String == "INPUT")
            #expect(signed.error?["ReasonCode"] as? String == "INVALID_TOKEN_UNIQUE_REFERENCE")

            // Signed, but not the document's JSON: the application refuses it.
            let empty = Data(#"{"TokenSuspendRequest":{}}"#.utf8)
            let malformed = try await Self.post(url, body: empty, authorization: sign(signer, body: empty))
            #expect(malformed.status == 400 && malformed.error?["Source"] as? String == "INPUT")

            // The same signed request again: its nonce is spent.
            let replayed = try await Self.post(url, body: Self.body, authorization: header)
            #expect(replayed.status == 401 && replayed.error?["Source"] as? String == "Gateway")
        }
    }

    /// `/v2/token/update` opens `EncryptedAccountInformation` with Mastercard's key before it
    /// looks for the token: a payload for another key is `CRYPTOGRAPHY_ERROR`, one for its key
    /// reaches the token lookup; without a key the update is refused.
    @Test func aTokenUpdateIsOpenedWithMastercardsKey() async throws {
        let issuerKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let signer = OAuth1Signer(consumerKey: "demo-bank", signingKey: issuerKey)
        let verifier = try SandboxOAuthVerifier(publicKeyPEM: issuerKey.publicKey.pemRepresentation, consumerKey: "demo-bank")
        let mastercard = try SandboxMastercardEncryptionKey.generate(now: Date())
        let stranger = try MDESIssuerKey.generate()
        func body(for publicKeyPEM: String) throws -> Data {
            let sealed = try MDESPayloadEncryptor(publicKeyPEM: publicKeyPEM).seal(
                Data(#"{"NewAccount":{"AccountPan":"5555555555554444","ExpirationDate":"0333"}}"#.utf8))
            let information: [String: Any] = [
                "EncryptedData": sealed.encryptedData, "PublicKeyFingerprint": sealed.publicKeyFingerprint,
                "EncryptedKey": sealed.encryptedKey, "OaepHashingAlgorithm": "SHA256", "Iv": sealed.iv,
                "algorithmCipherMode": sealed.algorithmCipherMode, "tag": sealed.tag ?? "", "aad": sealed.aad ?? "",
            ]
            let request: [String: Any] = [
                "TokenUniqueReference": "DSBXMC000000000000000000000000000000000000000000",
                "EncryptedAccountInformation": information, "UpdateWalletProviderIndicator": "0",
                "AuditInfo": ["UserId": "op_1", "UserName": "Provisio API key", "Organization": "Demo Bank"],
            ]
            return try JSONSerialization.data(withJSONObject: ["TokenUpdateRequest": request])
        }
        let forMastercard = try body(for: try mastercard.key.publicKeyPEM)
        let forStranger = try body(for: try stranger.publicKeyPEM)
        for key in [mastercard, nil] {
            try await Self.withSandbox(verifier: verifier, mastercardKey: key) { base in
                let url = base + "/mdes/csapi/v2/token/update"
                func post(_ body: Data) async throws -> Answer {
                    let header = try signer.authorizationHeader(
                        method: "POST", url: url, body: body, nonce: OAuth1Signer.makeNonce(),
                        timestamp: Int64(Date().timeIntervalSince1970))
                    return try await Self.post(url, body: body, authorization: header)
                }
                let opened = try await post(forMastercard)
                let foreign = try await post(forStranger)
                guard key != nil else {
                    #expect(opened.status == 400 && opened.error?["ReasonCode"] as? String == "INVALID_REQUEST")
                    return
                }
                #expect(opened.status == 400 && opened.error?["ReasonCode"] as? String == "INVALID_TOKEN_UNIQUE_REFERENCE")
                #expect(foreign.status == 400 && foreign.error?["ReasonCode"] as? String == "CRYPTOGRAPHY_ERROR")
                for answer in [opened, foreign] {
                    #expect(!"\(answer.error ?? [:])".contains("5555555555554444"))
                }
            }
        }
    }

    @Test func theCustomerServiceAPIIsOnlyThereWithAVerifier() async throws {
        try await Self.withSandbox(verifier: nil) { base in
            // Without --network mdes the path is an unknown route behind the sandbox's key.
            let answer = try await Self.post(base + Self.path, body: Self.body, authorization: nil)
            #expect(answer.status == 401)
        }
    }

    static func post(_ url: String, body: Data, authorization: String?) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        request.body = .bytes(body)
        // Long: a bound against a hang, not a speed check (a loaded CI machine took over 10 s).
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 64 * 1024)
        let json = try? JSONSerialization.jsonObject(with: Data(buffer: bytes)) as? [String: Any]
        let errors = (json?["Errors"] as? [String: Any])?["Error"] as? [[String: Any]]
        return Answer(status: Int(response.status.code), error: errors?.first)
    }

    static func withSandbox(
        verifier: SandboxOAuthVerifier?, mastercardKey: SandboxMastercardEncryptionKey? = nil,
        _ body: @Sendable (String) async throws -> Void
    ) async throws {
        var profile = SandboxCAProfile(now: Date())
        profile.issuesRSALeaf = false
        let wallet = SandboxWallet(certificateAuthority: try SandboxCertificateAuthority.generate(profile: profile))
        let network = SandboxNetworkTokenService(
            wallet: wallet, issuer: IssuerConnection(baseURL: "http://127.0.0.1:1", networkKey: "prv_nk_unused"),
            issuerTAVPublicKey: P256.Signing.PrivateKey().publicKey)
        let logger = Logger(label: "sandbox-mdes-test")
        try await RunningApplication.with(logger: logger) { onListening in
            SandboxHTTPService.make(
                world: SandboxHTTPWorld(network: network), host: "127.0.0.1", port: 0, apiKey: "sbx_key_test_only",
                oauthVerifier: verifier, mastercardKey: mastercardKey, logger: logger, onListening: onListening)
        } _: { running in
            try await body("http://127.0.0.1:\(running.port)")
        }
    }
}
