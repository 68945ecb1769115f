import ProvisioCore

// The card product's side of the network: the terms an Apple add waits on, and a product change
// reaching a token and its pass.
extension SandboxNetworkTokenService {
    /// An Apple add whose token exists but whose pass Wallet has not made: the card product has
    /// terms, and the cardholder has not accepted them yet.
    struct AwaitingTerms: Sendable {
        /// What Wallet installs once they are accepted (the token's profile then replaces its own).
        var card: SandboxWalletCard
        /// What Wallet showed; exactly this version must be accepted.
        var terms: SandboxCardProfile.Terms
    }

    /// The terms the add of this Apple session waits on, if it waits.
    public func awaitingTerms(sessionID: String) -> SandboxCardProfile.Terms? {
        awaitingTerms[sessionID]?.terms
    }

    /// The cardholder accepts the card product's terms for the add of `sessionID`: with exactly
    /// the version Wallet showed, Wallet makes the pass — in the token's state now (activated,
    /// requiring activation, or suspended if the issuer suspended it meanwhile) — and the
    /// session's outcome carries it. Another version is refused and the add still waits; an add
    /// that waits on nothing (no terms, or accepted already) is refused too.
    @discardableResult
    public func acceptTerms(sessionID: String, version: String) async throws -> NetworkProvisioningOutcome {
        guard let waiting = awaitingTerms[sessionID], let outcome = outcomes[sessionID] else {
            throw ProvisioError(
                .sandboxTermsNotPending, "No add on this session waits for the cardholder to accept terms.")
        }
        guard version == waiting.terms.version else {
            throw ProvisioError(
                .sandboxTermsVersionMismatch,
                "The accepted version is not the version of the terms Wallet showed for this card (\(waiting.terms.version)).")
        }
        let ref = waiting.card.networkTokenRef
        let token = try existingToken(ref)
        let state: SandboxPassActivationState
        switch token.state {
        case .active: state = .activated
        case .pendingActivation: state = .requiresActivation
        case .suspended: state = .suspended
        default:
            awaitingTerms[sessionID] = nil
            throw ProvisioError(
                .sandboxNetworkTokenStateInvalid,
                "The token became \(token.state.rawValue) before the terms were accepted; Wallet makes no pass.")
        }
        // Taken before the await: a second acceptance cannot make a second pass.
        awaitingTerms[sessionID] = nil
        let profile = token.profile ?? waiting.card.profile
        let card = SandboxWalletCard(
            issuerTokenID: waiting.card.issuerTokenID, networkTokenRef: ref,
            primaryAccountIdentifier: waiting.card.primaryAccountIdentifier,
            deviceAccountIdentifier: waiting.card.deviceAccountIdentifier, fundingLast4: waiting.card.fundingLast4,
            tokenLast4: waiting.card.tokenLast4,
            details: waiting.card.details.applying(profile?.shownDetails ?? CardDetails()),
            walletRequestID: waiting.card.walletRequestID, profile: profile)
        let handle: String
        do {
            handle = try await holder(of: token).install(card, state: state, on: token.device)
        } catch {
            awaitingTerms[sessionID] = waiting
            throw error
        }
        var updated = try existingToken(ref)
        updated.passSerialNumber = handle
        tokens[ref] = updated
        let pass = await wallet.pass(serialNumber: handle, on: token.device.kind)
        var finished = outcome
        finished.pass = pass
        finished.awaitingTerms = nil
        outcomes[sessionID] = finished
        return finished
    }

    /// The issuer changed the card's product (the connector's card details with `card_profile`):
    /// the token keeps the new profile whole, and Wallet gives it to the pass — its name as the
    /// title, its art, the apps that see the pass and the link it opens. Only a live token takes
    /// it; the issuer asked, so nothing is reported back. An add still waiting for its terms makes
    /// its pass with the new profile.
    @discardableResult
    public func updateCardProfile(_ profile: SandboxCardProfile, networkTokenRef: String) async throws -> NetworkToken {
        var token = try existingToken(networkTokenRef)
        guard [.pendingActivation, .active, .suspended].contains(token.state) else {
            throw ProvisioError(
                .sandboxNetworkTokenStateInvalid, "A token that is \(token.state.rawValue) takes no new card profile.")
        }
        if let handle = token.passSerialNumber {
            let holder = holder(of: token)
            try await holder.showDetails(profile.shownDetails, newLast4: nil, handle: handle, on: token.device)
            try await holder.showProfile(profile, handle: handle, on: token.device)
        }
        token = try existingToken(networkTokenRef)
        token.profile = profile
        tokens[networkTokenRef] = token
        return token
    }

    static func termsNotAccepted(_ terms: SandboxCardProfile.Terms) -> ProvisioError {
        ProvisioError(
            .sandboxTermsNotAccepted,
            "The card's product has terms and conditions (version \(terms.version)) the cardholder has not accepted: "
                + "Wallet made no pass. Accept exactly that version for this add-card session.")
    }
}
