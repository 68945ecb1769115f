import Foundation
import OpenAPIRuntime
import ProvisioCore
import ProvisioSandboxMDESIssuerAPI

extension IssuerDecision {
    /// MDES's decision in the network's outcomes: `APPROVED` green, `REQUIRE_ADDITIONAL_AUTHENTICATION`
    /// yellow with the methods in the network's words, `DECLINED` red with `declineReasonCode`.
    init(_ answer: Components.Schemas.AuthorizeServiceResponse, reference: String) {
        let outcome: DecisionOutcome
        let state: String
        switch answer.decision {
        case .approved: (outcome, state) = (.approve, "active")
        case .requireAdditionalAuthentication: (outcome, state) = (.requireVerification, "pending_verification")
        case .declined: (outcome, state) = (.decline, "declined")
        }
        var words: [String] = []
        var offers: [SandboxActivationOffer] = []
        for method in answer.activationMethods ?? [] {
            let word = MDESActivationMethodWords.word(for: method._type.rawValue)
            if !words.contains(word) {
                words.append(word)
                // What Wallet shows: the masked contact, the number; the app by its name alone.
                offers.append(SandboxActivationOffer(method: word, contact: word == "app_to_app" ? nil : method.value))
            }
        }
        self.init(
            tokenID: reference, outcome: outcome,
            reasons: [answer.declineReasonCode?.rawValue ?? answer.decision.rawValue], state: state,
            activationMethods: outcome == .requireVerification ? words : [])
        activationOffers = outcome == .requireVerification ? offers : []
    }
}

extension SandboxMDESIssuerConnection {
    /// An MDES error answer: its `errorCode` is named, never its description or the request.
    static func refusal(_ operation: String, _ status: Int, _ error: Components.Schemas.MdesError?) -> ProvisioError {
        guard let error else {
            return ProvisioError(
                .sandboxIssuerAnswerMalformed, "The issuer answered \(operation) with HTTP \(status) and no MDES error.")
        }
        return ProvisioError(
            .sandboxMdesIssuerRefused, "The issuer refused \(operation) (HTTP \(status)): \(error.errorCode.rawValue).")
    }

    /// Runs one call. A failure once an answer arrived (it does not decode, is too long or not
    /// JSON) is a malformed answer; one before it (connection, TLS handshake, timeout) an
    /// unreachable issuer, whose description names the URL at most, never a body.
    func call<Answer: Sendable>(_ operation: String, _ body: () async throws -> Answer) async throws -> Answer {
        do {
            return try await body()
        } catch let error as ProvisioError {
            throw error
        } catch let error as ClientError where error.response == nil && !(error.underlyingError is DecodingError) {
            throw ProvisioError(
                .sandboxIssuerUnreachable,
                "The issuer's MDES listener could not be reached for \(operation) (\(error.causeDescription)).")
        } catch {
            throw ProvisioError(.sandboxIssuerAnswerMalformed, "The issuer's answer to \(operation) is not MDES's JSON.")
        }
    }
}
