import Foundation
import ProvisioCore
import Testing

@testable import ProvisioCrypto

/// Fixtures/mdes-payload-vectors.json, written by Tools/vectors/mdes_oauth_vectors.py with
/// Python's `cryptography` from the MDES document, not from Provisio's code.
struct MDESVectors: Decodable {
    struct Key: Decodable {
        let name: String
        let bits: Int
        let privateKeyPKCS8PEM: String
        let publicKeySPKIPEM: String
        let fingerprintSHA256: String
        let fingerprintSHA1: String
    }

    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        let name: String
        let key: String
        let aesKeyHex: String
        let plaintextHex: String
        let payload: MDESEncryptedPayload
        var testDescription: String { name }
    }

    struct BadCase: Decodable, CustomTestStringConvertible, Sendable {
        let name: String
        let payload: MDESEncryptedPayload
        let code: String
        var testDescription: String { name }
    }

    let keys: [Key]
    let cases: [Case]
    let bad: [BadCase]

    static let shared: MDESVectors = try! JSONDecoder().decode(
        MDESVectors.self, from: Fixtures.data("mdes-payload-vectors.json"))

    /// The fixture's keys, parsed once (RSA parsing is not free).
    static let issuerKeys: [String: MDESIssuerKey] = Dictionary(
        uniqueKeysWithValues: shared.keys.map { ($0.name, try! MDESIssuerKey(privateKeyPEM: $0.privateKeyPKCS8PEM)) })

    /// The test PAN inside every plaintext; no error message may contain it.
    static let pan = "5412345678901232"

    /// The code a throwing call fails with, or nil if it succeeds.
    static func code(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as ProvisioError {
            return error.code.rawValue
        } catch {
            return "unexpected: \(error)"
        }
    }
}
