import Foundation
import ProvisioCore
import ProvisioCrypto

/// What the MDES listener does, in Provisio's terms: opens the payload with the tenant's keys,
/// finds the card, and hands decisions, codes and token changes to the services the Provisio
/// dialect uses (`TokenService`, `OTPRelay`), so both dialects decide and record alike. The
/// handler maps MDES's messages onto these calls and their results back.
struct MDESIssuerService: Sendable {
    let tokens: TokenService
    let keys: MDESKeyService
    let exchanges: any MDESExchangeStore
    let otpRelay: OTPRelay
    /// Keys the digests of activation codes (and, in the exchange, of request ids and bodies).
    let digester: KeyedDigester
    let clock: any TimeSource
    /// Issuer-generated codes live this long, as the Provisio dialect's relayed codes do.
    let codeLifetime: TimeInterval = 300

    /// The card of a decrypted payload, or why there is none to decide on.
    enum CardLookup {
        case found(CardRecord, PrimaryAccountNumber)
        /// Unknown number, or an expiry that is not the card's: `INVAL_CARD`.
        case notTheIssuers
    }

    /// The payload opened and parsed: refusals for a payload that does not open, names no live
    /// key, does not parse, or has expired.
    func open(_ payload: MDESEncryptedPayload, tenantID: String) async throws -> MDESPlaintext {
        let live = try await keys.decryptionKeys(tenantID: tenantID)
        guard !live.isEmpty else { throw MDESRefusal.cryptography }
        let decrypted: MDESDecryptedPayload
        do {
            decrypted = try MDESPayloadDecrypter(keys: live).decrypt(payload)
        } catch let error as ProvisioError where error.code == .mdesPayloadMalformed {
            throw MDESRefusal.format("fundingAccountInfo.encryptedPayload")
        } catch is ProvisioError {
            throw MDESRefusal.cryptography
        }
        var plaintext = decrypted.plaintext
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        let opened = try MDESPlaintext(decoding: plaintext)
        try opened.checkValidity(now: clock.now())
        return opened
    }

    /// The tenant's card with the payload's number and, when given, its expiry.
    func card(of plaintext: MDESPlaintext, tenantID: String) async throws -> CardLookup {
        guard let account = plaintext.cardAccount, let pan = try? PrimaryAccountNumber(account.accountNumber),
            let card = try await tokens.store.card(panFingerprint: tokens.fingerprinter.fingerprint(pan), tenantID: tenantID)
        else { return .notTheIssuers }
        if let month = account.expiryMonth, let year = account.expiryYear {
            guard Int(month) == card.expiryMonth, Int(year) == card.expiryYear % 100 else { return .notTheIssuers }
        }
        return .found(card, pan)
    }

    /// The decision on a new token, recorded under `tokenUniqueReference`, through the same
    /// rules and decision webhook as the Provisio dialect's.
    func decide(
        card: CardRecord, pan: PrimaryAccountNumber, tokenUniqueReference: String, wallet: Wallet, device: DeviceType?,
        risk: RiskAssessment, tenantID: String
    ) async throws -> (TokenRecord, Decision) {
        let request = TokenService.TokenRequest(
            pan: pan, expiry: try CardExpiry(month: card.expiryMonth, year: card.expiryYear), wallet: wallet,
            deviceType: device, networkTokenRef: tokenUniqueReference, tokenLast4: nil, deviceAccountIdentifier: nil,
            risk: risk)
        return try await tokens.decide(request, tenantID: tenantID)
    }

    func token(_ tokenUniqueReference: String, tenantID: String) async throws -> TokenRecord {
        guard let token = try await tokens.store.token(networkTokenRef: tokenUniqueReference, tenantID: tenantID) else {
            throw MDESRefusal.value("tokenUniqueReference")
        }
        return token
    }

    /// Relays MDES's code, or one Provisio makes, through the issuer's signed one-time-code
    /// webhook, and keeps only its keyed digest for `validateActivationCode`.
    func deliverCode(
        _ code: String?, expiresAt: Date?, tokenUniqueReference: String, tenantID: String, details: OTPRequestDetails? = nil
    ) async throws {
        let token = try await token(tokenUniqueReference, tenantID: tenantID)
        guard token.state == .pendingVerification else { throw MDESRefusal.value("tokenUniqueReference") }
        let now = clock.now()
        let code = code ?? Self.generateCode()
        let expiry = expiresAt ?? now.addingTimeInterval(codeLifetime)
        guard expiry > now else { throw MDESRefusal.value("expirationDateTime") }
        do {
            // The document's bounds on `activationCode` were checked with the request.
            _ = try await tokens.relayCode(
                networkTokenRef: tokenUniqueReference, tenantID: tenantID, code: code, expiresAt: expiry, relay: otpRelay,
                details: details)
        } catch let error as ProvisioError where error.code == .tokenInvalidTransition || error.code == .tokenNotFound {
            throw MDESRefusal.value("tokenUniqueReference")
        }
        try await exchanges.putMDESActivationCode(
            MDESActivationCodeRecord(
                tenantID: tenantID, tokenUniqueReference: tokenUniqueReference,
                codeDigest: codeDigest(code, tokenUniqueReference: tokenUniqueReference, tenantID: tenantID),
                expiresAt: expiry, failures: 0, state: .live, createdAt: now))
    }

    /// Checks a code; `SUCCESS` verifies a pending token (`verified(otp)`), as the Provisio
    /// dialect's `otp_verified` event does.
    func validateCode(_ code: String, tokenUniqueReference: String, tenantID: String) async throws -> MDESCodeCheck.Result {
        let token = try await token(tokenUniqueReference, tenantID: tenantID)
        let presented = codeDigest(code, tokenUniqueReference: tokenUniqueReference, tenantID: tenantID)
        // A concurrent check may count a miss first: read again and retry, a few times at most.
        for _ in 0..<5 {
            let stored = try await exchanges.mdesActivationCode(tenantID: tenantID, tokenUniqueReference: tokenUniqueReference)
            let (result, next) = MDESCodeCheck.check(stored, presentedDigest: presented, now: clock.now())
            if let next, let stored {
                guard try await exchanges.updateMDESActivationCode(next, expectedFailures: stored.failures) else { continue }
            }
            if result == .success, token.state == .pendingVerification {
                _ = try await tokens.apply(.verified(.otp), to: token, reasonCode: "otp_verified", networkState: "ACTIVE")
            }
            return result
        }
        throw MDESRefusal.internalFailure
    }

    /// The token changes MDES reports, each through the state machine; a change the token's
    /// state does not allow (MDES reporting what Provisio already knows) is recorded only.
    func apply(_ change: MDESTokenChange, to token: TokenRecord) async throws {
        guard let event = change.event(for: token.state) else {
            try await tokens.store.appendAudit(
                AuditChange("mdes.\(change.auditName)", target: "token", token.id, reason: change.reason),
                tenantID: token.tenantID, at: clock.now())
            return
        }
        _ = try await tokens.apply(event, to: token, reasonCode: change.reason, networkState: change.networkState)
    }

    /// Records what MDES said about a token without changing it (suspicious events, reasons
    /// other than a status update).
    func record(_ action: String, token: TokenRecord, reason: String?) async throws {
        try await tokens.store.appendAudit(
            AuditChange(action, target: "token", token.id, reason: reason), tenantID: token.tenantID, at: clock.now())
    }

    func codeDigest(_ code: String, tokenUniqueReference: String, tenantID: String) -> String {
        digester.digest([Data(tenantID.utf8), Data(tokenUniqueReference.utf8), Data(code.utf8)])
    }

    /// Six digits from the system's CSPRNG.
    static func generateCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
    }
}
