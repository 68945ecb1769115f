import Foundation
import OpenAPIRuntime
import ProvisioCore
import ProvisioCrypto
import ProvisioMDESCustomerServiceAPI
import ProvisioOutbound

/// `NetworkConnector` in the MDES dialect: Mastercard MDES's Customer Service API as
/// `mdes-customer-service-openapi.yaml` describes it (`POST {customer_service_url}/v2/token/…`),
/// through the client generated from it, every request signed with OAuth 1.0a RSA-SHA256 and a
/// body hash (`MDESRequestSigning`), over the transport the caller gives (the server's guarded
/// outbound client: checked address, no redirects).
///
/// Suspend, resume, delete and customer-service activation map to MDES operations, and a
/// reissued card's new expiry to `/v2/token/update`, encrypted for Mastercard's key: without the
/// tenant's copy of Mastercard's encryption certificate that command is refused
/// (`network_refused`) before anything is sent. MDES's own words never reach Provisio's caller:
/// only its status and `ReasonCode`.
public struct MDESDialectConnector: NetworkConnector {
    public let customerServiceURL: String
    private let client: Client?
    private let auditInfo: MDESAuditInfo
    /// What a token update's `EncryptedAccountInformation` is encrypted for; nil when unset.
    private let mastercardEncryptionCertificate: MastercardEncryptionCertificate?

    public var dialect: NetworkDialect { .mdes }

    /// The most an answer may hold; the transport should stop reading there too.
    public static let maximumAnswerBytes = 64 * 1024

    /// `auditInfo` names who acted, for this command's `AuditInfo`; `mastercardEncryptionCertificate`
    /// is the tenant's setting, which a reissue needs; `clock` and `makeNonce` feed the
    /// signature's timestamp and nonce.
    public init(
        customerServiceURL: String, signer: OAuth1Signer, auditInfo: MDESAuditInfo,
        mastercardEncryptionCertificate: MastercardEncryptionCertificate? = nil, transport: any ClientTransport,
        clock: any TimeSource, makeNonce: @escaping @Sendable () -> String = OAuth1Signer.makeNonce
    ) {
        self.customerServiceURL = customerServiceURL.hasSuffix("/") ? String(customerServiceURL.dropLast()) : customerServiceURL
        self.auditInfo = auditInfo
        self.mastercardEncryptionCertificate = mastercardEncryptionCertificate
        self.client = URL(string: self.customerServiceURL).map { url in
            Client(
                serverURL: url, transport: transport,
                middlewares: [
                    MDESRequestSigning(
                        signer: signer, clock: clock, makeNonce: makeNonce, maximumAnswerBytes: Self.maximumAnswerBytes)
                ])
        }
    }

    public func send(_ command: NetworkCommand, networkTokenRef: String, reasonCode: String?) async throws
        -> NetworkCommandAnswer
    {
        guard let client else { throw ProvisioError(.networkUnavailable, "The card network's URL is not a URL.") }
        let audit = Components.Schemas.AuditInfo(
            userId: auditInfo.userID, userName: auditInfo.userName, organization: auditInfo.organization)
        let comment = Self.comment(command, reasonCode: reasonCode)
        // Refused before any request: a reissue MDES cannot be told of is not sent at all.
        let accountInformation =
            try command.cardDetails.map { try encryptedAccountInformation($0) }
            ?? command.replacement.map { try encryptedAccountInformation(replacing: $0.pan, expiry: $0.expiry) }
        let (changed, state): (String?, String) = try await Self.perform("the \(command.action) command") {
            switch command {
            case .suspend:
                let answer = try await client.suspendToken(
                    body: .json(
                        .init(
                            tokenSuspendRequest: .init(
                                tokenUniqueReference: networkTokenRef, reasonCode: MDESReasonCodes.suspend(reasonCode),
                                commentText: comment, auditInfo: audit)))
                ).ok.body.json
                return (answer.tokenSuspendResponse?.token?.tokenUniqueReference, "suspended")
            case .resume:
                let answer = try await client.unsuspendToken(
                    body: .json(
                        .init(
                            tokenUnsuspendRequest: .init(
                                tokenUniqueReference: networkTokenRef, reasonCode: MDESReasonCodes.unsuspend(reasonCode),
                                commentText: comment, auditInfo: audit)))
                ).ok.body.json
                return (
                    answer.tokenUnsuspendResponse?.token?.tokenUniqueReference,
                    await Self.stateAfterUnsuspend(client, networkTokenRef: networkTokenRef, audit: audit)
                )
            case .delete:
                let answer = try await client.deleteToken(
                    body: .json(
                        .init(
                            tokenDeleteRequest: .init(
                                tokenUniqueReference: networkTokenRef, reasonCode: MDESReasonCodes.delete(reasonCode),
                                commentText: comment, deleteFromConsumerApp: .init(value1: ._false), auditInfo: audit)))
                ).ok.body.json
                return (answer.tokenDeleteResponse?.token?.tokenUniqueReference, "deleted")
            case .activate(let method):
                // MDES's `C`: the cardholder proved who they are to an agent; `A`: they
                // authenticated with an activation method, here the issuer's own app.
                let reason: Components.Schemas.ActivateReason
                switch method {
                case "customer_service": reason = .c
                case "app_authentication": reason = .a
                default:
                    throw ProvisioError(
                        .networkRefused, "The MDES dialect activates a token only after customer service or the issuer's app.")
                }
                let answer = try await client.activateToken(
                    body: .json(
                        .init(
                            tokenActivateRequest: .init(
                                tokenUniqueReference: networkTokenRef, reasonCode: reason, commentText: comment,
                                auditInfo: audit)))
                ).ok.body.json
                return (answer.tokenActivateResponse?.token?.tokenUniqueReference, "active")
            case .updateCardDetails, .replaceFundingAccount:
                guard let accountInformation else { preconditionFailure("Encrypted before the call.") }
                let answer = try await client.updateToken(
                    body: .json(
                        .init(
                            tokenUpdateRequest: .init(
                                tokenUniqueReference: networkTokenRef, encryptedAccountInformation: accountInformation,
                                updateWalletProviderIndicator: ._0, commentText: comment, auditInfo: audit)))
                ).ok.body.json
                // MDES lists the tokens it changed; a list without this one is another command's. Its
                // answer has no status, and an update changes none: `updated` says only that.
                let listed = (answer.tokenUpdateResponse?.tokens?.token ?? []).map(\.tokenUniqueReference)
                return (listed.isEmpty || listed.contains(networkTokenRef) ? networkTokenRef : listed[0], "updated")
            }
        }
        // MDES names the token it changed; an answer about another one is not this command's.
        guard changed == nil || changed == networkTokenRef else {
            throw ProvisioError(.networkAnswerMalformed, "The card network's answer is not about the token it was asked about.")
        }
        return NetworkCommandAnswer(networkTokenRef: networkTokenRef, state: state)
    }

    /// A reissue's `EncryptedAccountInformation`, or the refusal that names what is missing:
    /// Mastercard's certificate (a tenant setting), or a change MDES can carry (its token update
    /// holds a new number or expiry only; the cardholder name and card art are not MDES's to set).
    func encryptedAccountInformation(_ change: CardDetails) throws -> Components.Schemas.EncryptedAccountInformation {
        guard let certificate = mastercardEncryptionCertificate else {
            throw ProvisioError(
                .networkRefused,
                "A reissue goes to MDES encrypted for Mastercard's key, and the tenant's network settings have no "
                    + "mastercard_encryption_certificate_pem (PUT /v1/settings/network); nothing was sent.")
        }
        guard let expiry = change.expiry else {
            throw ProvisioError(
                .networkRefused,
                "MDES's token update carries a new card number or expiry only; a new cardholder name, card art "
                    + "or product title is not sent to MDES.")
        }
        return try MDESAccountUpdate(primaryAccountNumber: nil, expiry: expiry).encrypt(for: certificate)
    }

    /// A replaced card's `EncryptedAccountInformation`: MDES's token update with the new number
    /// and its expiry, so the token is funded by the new card (refused without Mastercard's
    /// certificate, as a reissue is).
    func encryptedAccountInformation(replacing pan: PrimaryAccountNumber, expiry: CardExpiry) throws
        -> Components.Schemas.EncryptedAccountInformation
    {
        guard let certificate = mastercardEncryptionCertificate else {
            throw ProvisioError(
                .networkRefused,
                "A replaced card's number goes to MDES encrypted for Mastercard's key, and the tenant's network settings "
                    + "have no mastercard_encryption_certificate_pem (PUT /v1/settings/network); nothing was sent.")
        }
        return try MDESAccountUpdate(primaryAccountNumber: pan, expiry: expiry).encrypt(for: certificate)
    }

    /// Each party lifts only its own suspension, so after the issuer's the token may still be
    /// suspended by the cardholder or the wallet: MDES's search says which. The unsuspend is made
    /// whatever the search answers, so a search that fails reports the token active.
    static func stateAfterUnsuspend(_ client: Client, networkTokenRef: String, audit: Components.Schemas.AuditInfo) async
        -> String
    {
        let request = Components.Schemas.SearchRequest(
            tokenUniqueReference: networkTokenRef, excludeDeletedIndicator: .init(value1: ._false), auditInfo: audit)
        guard let found = try? await client.searchTokens(body: .json(.init(searchRequest: request))).ok.body.json,
            let token = found.searchResponse?.accounts?.account?.flatMap({ $0.tokens?.token ?? [] })
                .first(where: { $0.tokenUniqueReference == networkTokenRef }),
            let status = token.currentStatusCode.flatMap({ $0.value2 ?? $0.value1?.rawValue })
        else { return "active" }
        switch status {
        case "S": return "suspended"
        case "D": return "deleted"
        case "U": return "pending_activation"
        default: return "active"
        }
    }

    /// What MDES keeps with the change: the command and Provisio's reason, which the server
    /// checked (visible ASCII, no card number).
    static func comment(_ command: NetworkCommand, reasonCode: String?) -> String {
        "Provisio: \(command.action)" + (reasonCode.map { " (\($0))" } ?? "")
    }

    /// Runs a call of the generated client and throws only `network_*` codes: the generated code
    /// wraps failures in a `ClientError` that describes the operation's input, so none escapes.
    static func perform<Answer: Sendable>(_ what: String, _ call: () async throws -> Answer) async throws -> Answer {
        do {
            return try await call()
        } catch let error as ClientError {
            switch error.underlyingError {
            case MDESAnswer.refused(let status, let reasonCode, let source):
                throw refusal(what, status: status, reasonCode: reasonCode, source: source)
            case MDESAnswer.malformed, is DecodingError:
                throw ProvisioError(.networkAnswerMalformed, "The card network's answer to \(what) is not MDES's.")
            case let refused as ProvisioError
            where refused.code == .outboundAddressRefused || refused.code == .outboundHTTPSRequired:
                throw ProvisioError(.networkUnavailable, "The card network's address is not allowed: \(refused.message)")
            case _ where error.response == nil:
                throw ProvisioError(.networkUnavailable, "The card network could not be reached.")
            default:
                throw ProvisioError(.networkAnswerMalformed, "The card network's answer to \(what) is not MDES's.")
            }
        } catch let error as ProvisioError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // A documented answer other than the one expected (the `default` error shape on 2xx).
            throw ProvisioError(.networkAnswerMalformed, "The card network's answer to \(what) is not MDES's.")
        }
    }

    /// MDES's refusal as Provisio's code: a refused signature or consumer key (401, 403) is the
    /// credentials; 5xx, 408 and 429 are the network being unavailable; anything else is a
    /// refusal, with MDES's reason code when it is a well-formed one.
    static func refusal(_ what: String, status: Int, reasonCode: String?, source: String?) -> ProvisioError {
        switch status {
        case 401, 403:
            return ProvisioError(
                .networkCredentialsRejected, "MDES refused Provisio's OAuth signature or consumer key (HTTP \(status)).")
        case 408, 429, 500...:
            return ProvisioError(.networkUnavailable, "MDES failed \(what) with HTTP \(status).")
        default:
            let code = reasonCode.flatMap { wellFormed($0) }.map { "\($0) (HTTP \(status))." } ?? "HTTP \(status)."
            return ProvisioError(.networkRefused, "MDES refused \(what): \(code)")
        }
    }

    /// MDES's reason codes are upper-case words (`INVALID_TOKEN`); anything else it wrote is
    /// not repeated.
    static func wellFormed(_ code: String) -> String? {
        guard (1...64).contains(code.utf8.count),
            code.utf8.allSatisfy({ (0x41...0x5A).contains($0) || $0 == 0x5F || (0x30...0x39).contains($0) })
        else { return nil }
        return code
    }
}
