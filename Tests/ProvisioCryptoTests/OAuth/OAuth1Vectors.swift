import Foundation
import ProvisioCore
import Testing
import _CryptoExtras

@testable import ProvisioCrypto

/// Fixtures/oauth1-vectors.json, written by Tools/vectors/mdes_oauth_vectors.py: requests signed
/// with Python's `cryptography` over a base string Python built from RFC 5849.
struct OAuth1Vectors: Decodable {
    struct Key: Decodable {
        let privateKeyPKCS8PEM: String
        let publicKeySPKIPEM: String
    }

    struct Request: Decodable, CustomTestStringConvertible, Sendable {
        let name: String
        let method: String
        let url: String
        let bodyUTF8: String
        let consumerKey: String
        let nonce: String
        let timestamp: Int64
        let bodyHash: String
        let normalizedParameters: String
        let signatureBaseString: String
        let signature: String
        let authorizationHeader: String
        var testDescription: String { name }
        var body: Data { Data(bodyUTF8.utf8) }
        var time: Date { Date(timeIntervalSince1970: TimeInterval(timestamp)) }
    }

    let keys: [Key]
    let requests: [Request]

    static let shared: OAuth1Vectors = try! JSONDecoder().decode(
        OAuth1Vectors.self, from: Fixtures.data("oauth1-vectors.json"))
    static let signingKey = try! _RSA.Signing.PrivateKey(pemRepresentation: shared.keys[0].privateKeyPKCS8PEM)
    static let publicKey = try! _RSA.Signing.PublicKey(pemRepresentation: shared.keys[0].publicKeySPKIPEM)

    /// The code an async throwing call fails with, or nil if it succeeds.
    static func code(_ body: () async throws -> Any) async -> String? {
        do {
            _ = try await body()
            return nil
        } catch let error as ProvisioError {
            return error.code.rawValue
        } catch {
            return "unexpected: \(error)"
        }
    }
}
