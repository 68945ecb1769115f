import Crypto
import Foundation
import ProvisioCore
import _CryptoExtras

/// Checks what `OAuth1Signer` produces, as Mastercard's gateway does for the Customer Service API
/// (the sandbox MDES uses it): the OAuth scheme with `RSA-SHA256`, a known consumer key, a
/// timestamp within the window, the body hash, the signature over the base string, and last (so
/// that only signed requests use up nonces) a nonce this consumer has not used.
///
/// Each refusal has its code: `oauth_header_malformed`, `oauth_consumer_key_unknown`,
/// `oauth_timestamp_out_of_window`, `oauth_body_hash_mismatch`, `oauth_signature_invalid`,
/// `oauth_nonce_replayed`. The window (default ±5 minutes) is Provisio's choice; Mastercard
/// publishes none.
public struct OAuth1Verifier: Sendable {
    public static let defaultWindow: TimeInterval = 5 * 60
    /// Nonces longer than this are refused rather than stored.
    public static let maximumNonceLength = 128

    let consumers: [String: _RSA.Signing.PublicKey]
    let nonceStore: any OAuth1NonceStore
    let window: TimeInterval

    /// `consumers`: each consumer key with the public half of its signing key.
    public init(
        consumers: [String: _RSA.Signing.PublicKey], nonceStore: any OAuth1NonceStore,
        window: TimeInterval = defaultWindow
    ) {
        self.consumers = consumers
        self.nonceStore = nonceStore
        self.window = window
    }

    public func verify(authorization: String, method: String, url: String, body: Data, at now: Date) async throws
        -> OAuth1VerifiedRequest
    {
        let header = try OAuth1AuthorizationHeader(parsing: authorization)
        func malformed(_ why: String) -> ProvisioError { ProvisioError(.oauthHeaderMalformed, why) }
        guard header["oauth_signature_method"] == OAuth1Signer.signatureMethod else {
            throw malformed("oauth_signature_method is not RSA-SHA256.")
        }
        if let version = header["oauth_version"], version != OAuth1Signer.version {
            throw malformed("oauth_version is not 1.0.")
        }
        guard let consumerKey = header["oauth_consumer_key"], let nonce = header["oauth_nonce"],
            let timestampText = header["oauth_timestamp"], let bodyHash = header["oauth_body_hash"],
            let signatureText = header["oauth_signature"]
        else { throw malformed("The OAuth header lacks a consumer key, nonce, timestamp, body hash or signature.") }
        guard !nonce.isEmpty, nonce.utf8.count <= Self.maximumNonceLength else {
            throw malformed("oauth_nonce is empty or too long.")
        }
        guard timestampText.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let timestamp = Int64(timestampText)
        else { throw malformed("oauth_timestamp is not a number of seconds.") }
        guard let signature = BinaryText.decodeBase64(signatureText) else {
            throw malformed("oauth_signature is not base64.")
        }

        guard let publicKey = consumers[consumerKey] else {
            throw ProvisioError(.oauthConsumerKeyUnknown, "oauth_consumer_key is not a known consumer.")
        }
        guard abs(now.timeIntervalSince1970 - TimeInterval(timestamp)) <= window else {
            throw ProvisioError(.oauthTimestampOutOfWindow, "oauth_timestamp is too far from now.")
        }
        guard ConstantTime.equal(bodyHash.utf8, OAuth1Signer.bodyHash(body).utf8) else {
            throw ProvisioError(.oauthBodyHashMismatch, "oauth_body_hash does not match the body.")
        }
        let signed = header.parameters.filter { $0.name != "oauth_signature" && $0.name != "realm" }
        let baseString: String
        do {
            baseString = try OAuth1SignatureBaseString.make(method: method, url: url, parameters: signed)
        } catch {
            throw malformed("The request URL cannot be part of a signature base string.")
        }
        guard
            publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: Data(baseString.utf8)),
                padding: .insecurePKCS1v1_5)
        else {
            throw ProvisioError(.oauthSignatureInvalid, "oauth_signature does not verify for this request.")
        }
        guard try await nonceStore.recordIfNew(nonce: nonce, consumerKey: consumerKey, timestamp: timestamp, now: now)
        else {
            throw ProvisioError(.oauthNonceReplayed, "oauth_nonce was used before.")
        }
        return OAuth1VerifiedRequest(consumerKey: consumerKey, nonce: nonce, timestamp: timestamp)
    }
}
