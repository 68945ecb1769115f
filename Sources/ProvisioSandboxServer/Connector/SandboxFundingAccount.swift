import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox

/// A replaced card as the issuer's Provisio sends it to the network
/// (`POST /network/v1/tokens/{ref}/funding-account`): a JWE to the network's key (the one opaque
/// payment cards go to) around `{"fpan", "expiry_month", "expiry_year"}`. Only the network opens
/// it; nothing here repeats the number, in an error or a description.
struct SandboxFundingAccount: Sendable, CustomStringConvertible {
    let primaryAccountNumber: PrimaryAccountNumber
    let expiry: CardExpiry

    var description: String { "SandboxFundingAccount(pan: \(primaryAccountNumber.masked), expiry: \(expiry.slashed))" }

    private struct Fields: Decodable {
        var fpan: String
        var expiryMonth: Int
        var expiryYear: Int

        enum CodingKeys: String, CodingKey {
            case fpan
            case expiryMonth = "expiry_month"
            case expiryYear = "expiry_year"
        }
    }

    /// Opens the JWE with the network's key: one it cannot open, or whose JSON is not exactly
    /// those three fields, or whose number or expiry is not a card's, is `sandbox_invalid_request`
    /// (the message names Core's code, `invalid_pan` or `invalid_expiry`).
    init(opening jwe: String, with key: SandboxOPCKey) throws {
        let plaintext: Data
        do {
            plaintext = try JWEDecrypter(privateKey: key.privateKey).decrypt(jwe).plaintext
        } catch {
            throw ProvisioError(
                .sandboxInvalidRequest,
                "encrypted_funding_account is not a JWE to the network's key, or it was changed.")
        }
        guard let object = try? JSONSerialization.jsonObject(with: plaintext) as? [String: Any],
            Set(object.keys) == ["fpan", "expiry_month", "expiry_year"],
            let fields = try? JSONDecoder().decode(Fields.self, from: plaintext)
        else {
            throw ProvisioError(
                .sandboxInvalidRequest,
                "encrypted_funding_account opens, but not to exactly fpan, expiry_month and expiry_year.")
        }
        // Core's own checks; refused as the document's one code for a request it cannot take.
        do {
            primaryAccountNumber = try PrimaryAccountNumber(fields.fpan)
            expiry = try CardExpiry(month: fields.expiryMonth, year: fields.expiryYear)
        } catch let error as ProvisioError {
            throw ProvisioError(
                .sandboxInvalidRequest, "encrypted_funding_account holds no card's number and expiry (\(error.code.rawValue)).")
        }
    }
}
