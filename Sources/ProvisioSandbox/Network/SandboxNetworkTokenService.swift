import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto

/// The card network's token service in the sandbox, as strict as a real one.
///
/// Apple's service forwards each accepted add-card submission here, and Google Wallet each
/// opaque payment card an issuer's app pushed into it; the network scores it, asks the issuer
/// (Provisio, over HTTP) to decide, creates the token and has the wallet the token lives in
/// (`SandboxTokenWallet`) install the card — activated on green, requiring activation on
/// yellow, none on red. It then verifies the cardholder (issuer TAV in-app, or a
/// one-time code) and originates lifecycle changes (removed from Wallet, device lost, token
/// expired), reporting each to the issuer.
///
/// An actor: tokens, OTP challenges and risk settings change atomically. Issuer calls are
/// awaited with the actor open, so each change re-checks the token's state afterwards and
/// the issuer's state machine arbitrates races.
public actor SandboxNetworkTokenService: NetworkForwarding {
    /// The `activation_methods` entry that allows one-time codes.
    public static let otpActivationMethod = "otp_sms"
    /// The issuer's app (TAV), as the issuer names it in its answer.
    public static let appActivationMethod = "app_to_app"

    /// Apple Wallet, where Apple's submissions go; other wallets name themselves when they
    /// push a card.
    public nonisolated let wallet: SandboxWallet
    public nonisolated let issuer: any IssuerLink
    /// Opens the opaque payment cards issuers push into Google Wallet and Samsung Wallet; its
    /// public half is Provisio's `networkKey`.
    public nonisolated let opcKey: SandboxOPCKey
    private let tavVerifier: TAVVerifier
    private let clock: any TimeSource
    private let tokenBIN: String

    private var defaultRisk: RiskAssessment
    private var riskByLast4: [String: RiskAssessment] = [:]
    var tokens: [String: NetworkToken] = [:]
    /// The wallet each token lives in (Apple Wallet unless another wallet pushed it).
    private var holders: [String: any SandboxTokenWallet] = [:]
    var outcomes: [String: NetworkProvisioningOutcome] = [:]
    /// Apple adds whose pass waits for the cardholder to accept the product's terms, by session.
    var awaitingTerms: [String: AwaitingTerms] = [:]
    private var challenges: [String: OTPChallenge] = [:]
    /// Tokens that used up their OTP attempts; only another method can activate them now.
    private var otpLocked: Set<String> = []
    private var otpRelay: (@Sendable (SandboxOTP) async throws -> [IssuerConnection.OTPChannel])?
    /// Codes go to the issuer through `issuer.relayOTP` (always, when the issuer checks them).
    private var relaysThroughIssuer = false
    private var otpChannelsByRef: [String: [IssuerConnection.OTPChannel]] = [:]
    /// Tokens with a lifecycle change in flight (see `change`).
    private var changing: Set<String> = []

    private struct OTPChallenge: Sendable {
        var otp: SandboxOTP
        var failedAttempts = 0
    }

    /// - Parameters:
    ///   - wallet: the wallet whose devices receive the passes.
    ///   - issuer: the issuer's Provisio, in Provisio's network dialect (reached with the network
    ///     key) or in MDES's.
    ///   - issuerTAVPublicKey: the issuer's TAV key, shared with the network out of band.
    ///   - clock: judges TAV and OTP validity; the wallet's clock unless given.
    ///   - opcKey: the network's key for opaque payment cards (a fresh one unless given).
    ///   - defaultRisk: what the network and Wallet say about a request unless overridden.
    public init(
        wallet: SandboxWallet, issuer: any IssuerLink, issuerTAVPublicKey: P256.Signing.PublicKey,
        clock: (any TimeSource)? = nil, opcKey: SandboxOPCKey = SandboxOPCKey(),
        defaultRisk: RiskAssessment = RiskAssessment(deviceScore: 5, accountScore: 5, walletRecommendation: .approve),
        tokenBIN: String = SandboxTokenPAN.defaultBIN
    ) {
        self.wallet = wallet
        self.issuer = issuer
        self.tavVerifier = TAVVerifier(publicKey: issuerTAVPublicKey)
        self.opcKey = opcKey
        self.clock = clock ?? wallet.clock
        self.defaultRisk = defaultRisk
        self.tokenBIN = tokenBIN
    }

    // MARK: - Scenario settings

    public func setDefaultRisk(_ risk: RiskAssessment) {
        defaultRisk = risk
    }

    /// Overrides the risk for cards ending in `last4` (nil removes the override).
    public func setRisk(_ risk: RiskAssessment?, forLast4 last4: String) {
        riskByLast4[last4] = risk
    }

    /// The risk the network attaches to a request for this card.
    public func risk(for pan: PrimaryAccountNumber) -> RiskAssessment {
        riskByLast4[pan.last4] ?? defaultRisk
    }

    /// Where one-time codes go besides the caller (flow 3b: to Provisio, which relays them to
    /// the issuer's signed webhook). Nil until that relay exists: the code is only returned.
    public func setOTPRelay(_ relay: (@Sendable (SandboxOTP) async throws -> [IssuerConnection.OTPChannel])?) {
        otpRelay = relay
    }

    /// Relays one-time codes through the issuer connection (Provisio's signed webhook, or MDES's
    /// `deliverActivationCode`).
    public func relayOTPsThroughIssuer() {
        relaysThroughIssuer = true
    }

    /// Where the issuer said it sent the last code for this token (masked), if it was relayed.
    public func otpChannels(networkTokenRef: String) -> [IssuerConnection.OTPChannel] {
        otpChannelsByRef[networkTokenRef] ?? []
    }

    // MARK: - Reading

    public func token(networkTokenRef: String) -> NetworkToken? { tokens[networkTokenRef] }

    /// Every token, oldest first.
    public func allTokens() -> [NetworkToken] {
        tokens.values.sorted { ($0.createdAt, $0.networkTokenRef) < ($1.createdAt, $1.networkTokenRef) }
    }

    public func outcome(sessionID: String) -> NetworkProvisioningOutcome? { outcomes[sessionID] }

    // MARK: - Provisioning

    /// Apple's service hands over an accepted submission; a red decision refuses the add.
    public func forward(_ submission: ProvisioningSubmission) async throws {
        let outcome = try await provision(submission)
        if outcome.decision == .decline {
            throw ProvisioError(
                .sandboxNetworkDeclined,
                "The issuer declined the card (\(outcome.reasons.isEmpty ? "no reason given" : outcome.reasons.joined(separator: ", ")))."
            )
        }
        if let terms = outcome.awaitingTerms { throw Self.termsNotAccepted(terms) }
    }

    /// Creates the token for a submission: asks the issuer, then adds the pass the decision
    /// calls for. `risk` overrides the scenario's risk for this call only.
    @discardableResult
    public func provision(_ submission: ProvisioningSubmission, risk: RiskAssessment? = nil) async throws
        -> NetworkProvisioningOutcome
    {
        let (token, decision) = try await createToken(
            TokenOrder(
                primaryAccountNumber: submission.primaryAccountNumber, expiry: submission.expiry, device: submission.device,
                primaryAccountIdentifier: submission.primaryAccountIdentifier, walletRequestID: nil,
                appleSessionID: submission.sessionID),
            in: wallet, risk: risk)
        var pass: SandboxPass?
        if let serial = token.passSerialNumber { pass = await wallet.pass(serialNumber: serial, on: submission.device.kind) }
        var outcome = NetworkProvisioningOutcome(
            sessionID: submission.sessionID, networkTokenRef: token.networkTokenRef, issuerTokenID: decision.tokenID,
            decision: decision.outcome, reasons: decision.reasons, activationMethods: token.activationMethods, pass: pass,
            awaitingTerms: awaitingTerms[submission.sessionID]?.terms)
        outcome.activationOffers = token.activationOffers
        outcomes[submission.sessionID] = outcome
        return outcome
    }

    /// A wallet hands over the opaque payment card an issuer's app pushed into it (Google's
    /// `pushTokenize`): the network opens it with its key, asks the issuer to decide as for
    /// Apple's adds, creates the token and has `wallet` install it on `device`. A card the
    /// network cannot open, or one built for another wallet, is refused before the issuer is
    /// asked. The outcome is recorded under `walletRequestID`.
    @discardableResult
    public func provision(
        opaquePaymentCard: String, into wallet: any SandboxTokenWallet, on device: SandboxDevice, walletRequestID: String,
        risk: RiskAssessment? = nil
    ) async throws -> NetworkProvisioningOutcome {
        let card = try opcKey.open(opaquePaymentCard)
        guard card.wallet == wallet.walletKind else {
            throw ProvisioError(
                .sandboxOpcInvalid,
                "The opaque payment card was built for \(card.wallet.rawValue), not for \(wallet.walletKind.rawValue).")
        }
        let (token, decision) = try await createToken(
            TokenOrder(
                primaryAccountNumber: card.primaryAccountNumber, expiry: card.expiry, device: device,
                primaryAccountIdentifier: card.cardID, walletRequestID: walletRequestID),
            in: wallet, risk: risk)
        var outcome = NetworkProvisioningOutcome(
            sessionID: walletRequestID, networkTokenRef: token.networkTokenRef, issuerTokenID: decision.tokenID,
            decision: decision.outcome, reasons: decision.reasons, activationMethods: token.activationMethods, pass: nil)
        outcome.activationOffers = token.activationOffers
        outcomes[walletRequestID] = outcome
        return outcome
    }

    /// What a wallet asks the network to tokenize, whichever way the card reached it.
    private struct TokenOrder: Sendable {
        var primaryAccountNumber: PrimaryAccountNumber
        var expiry: CardExpiry
        var device: SandboxDevice
        var primaryAccountIdentifier: String?
        var walletRequestID: String?
        /// The Apple add-card session, whose add waits when the product has terms.
        var appleSessionID: String? = nil
    }

    /// Asks the issuer to decide (naming the wallet and the device type), creates the token
    /// and has the wallet install the card the decision calls for.
    private func createToken(_ order: TokenOrder, in holder: any SandboxTokenWallet, risk: RiskAssessment?) async throws
        -> (NetworkToken, IssuerDecision)
    {
        let risk = risk ?? self.risk(for: order.primaryAccountNumber)
        try risk.validate()
        let tokenPAN = try SandboxTokenPAN.generate(bin: tokenBIN)
        let ref = issuer.makeTokenReference()
        let deviceAccountIdentifier = SandboxRandom.identifier(prefix: "", byteCount: 16).uppercased()
        let decision = try await issuer.requestDecision(
            IssuerDecisionRequest(
                primaryAccountNumber: order.primaryAccountNumber, expiry: order.expiry, wallet: holder.walletKind,
                deviceType: order.device.kind.deviceType, networkTokenRef: ref, tokenLast4: tokenPAN.last4,
                deviceAccountIdentifier: deviceAccountIdentifier, risk: risk))

        let state: NetworkTokenState
        let installState: SandboxPassActivationState?
        switch decision.outcome {
        case .approve: (state, installState) = (.active, .activated)
        case .requireVerification: (state, installState) = (.pendingActivation, .requiresActivation)
        case .decline: (state, installState) = (.declined, nil)
        }
        var token = NetworkToken(
            networkTokenRef: ref, tokenPrimaryAccountNumber: tokenPAN,
            fundingPrimaryAccountNumber: order.primaryAccountNumber, fundingExpiry: order.expiry,
            deviceAccountIdentifier: deviceAccountIdentifier, wallet: holder.walletKind, device: order.device,
            primaryAccountIdentifier: order.primaryAccountIdentifier ?? ref, issuerTokenID: decision.tokenID,
            state: state, decision: decision.outcome, reasons: decision.reasons,
            activationMethods: decision.outcome == .requireVerification ? decision.activationMethods : [],
            passSerialNumber: nil, createdAt: clock.now())
        token.profile = decision.profile
        if decision.outcome == .requireVerification { token.activationOffers = decision.activationOffers }
        holders[ref] = holder

        if let installState {
            let card = SandboxWalletCard(
                issuerTokenID: decision.tokenID.isEmpty ? ref : decision.tokenID, networkTokenRef: ref,
                primaryAccountIdentifier: token.primaryAccountIdentifier, deviceAccountIdentifier: deviceAccountIdentifier,
                fundingLast4: order.primaryAccountNumber.last4, tokenLast4: tokenPAN.last4,
                details: CardDetails(expiry: order.expiry).applying(decision.profile?.shownDetails ?? CardDetails()),
                walletRequestID: order.walletRequestID, profile: decision.profile)
            if let terms = decision.profile?.terms, let sessionID = order.appleSessionID {
                // Wallet shows the product's terms before it makes the pass (see `acceptTerms`).
                awaitingTerms[sessionID] = AwaitingTerms(card: card, terms: terms)
                tokens[ref] = token
                return (token, decision)
            }
            do {
                token.passSerialNumber = try await holder.install(card, state: installState, on: order.device)
            } catch {
                // The wallet would not take the card: the token must not live on at the issuer.
                token.state = .deleted
                tokens[ref] = token
                try? await issuer.report(event: .deleted, reasonCode: "wallet_refused_pass", token: token)
                throw error
            }
        }
        tokens[ref] = token
        return (token, decision)
    }

    // MARK: - Verification: TAV (in-app)

    /// Verifies the issuer's activation data for a pending token — signed by the issuer's TAV
    /// key over this token's funding PAN and expiry, and not expired — then reports `activated`
    /// and activates the pass. A refused TAV changes nothing.
    @discardableResult
    public func verifyActivationData(networkTokenRef: String, activationData: String) async throws -> NetworkToken {
        let token = try pendingToken(networkTokenRef)
        // Wallet offers only the methods the issuer answered for this device: no app on a Watch.
        guard token.activationMethods.contains(Self.appActivationMethod) else {
            throw ProvisioError(
                .sandboxActivationMethodNotOffered, "The issuer did not offer activation in its app for this token.")
        }
        try tavVerifier.verify(
            activationData: activationData, pan: token.fundingPrimaryAccountNumber, expiry: token.fundingExpiry,
            at: clock.now())
        try await issuer.report(event: .activated, reasonCode: "tav_verified", token: token)
        return try await activate(networkTokenRef)
    }

    // MARK: - Verification: one-time code

    /// What Wallet shows the cardholder for a pending token before a code is sent: each method
    /// offered with its masked contact or number (the methods alone when the issuer gave no
    /// offers).
    public func activationOffers(networkTokenRef: String) throws -> [SandboxActivationOffer] {
        let token = try pendingToken(networkTokenRef)
        return token.activationOffers.isEmpty
            ? token.activationMethods.map { SandboxActivationOffer(method: $0) } : token.activationOffers
    }

    /// Issues a fresh six-digit code for a pending token (replacing any earlier one), by the
    /// channel the cardholder chose: one the issuer did not offer for this token is
    /// `sandbox_activation_method_not_offered`. The sandbox plays the cardholder's phone and
    /// returns it.
    public func requestOTP(networkTokenRef: String, channel: SandboxOTPChannel = .sms) async throws -> SandboxOTP {
        let token = try pendingToken(networkTokenRef)
        guard token.activationMethods.contains(channel.method) else {
            throw ProvisioError(
                .sandboxActivationMethodNotOffered,
                "The issuer did not offer a one-time code by \(channel.rawValue) for this token.")
        }
        guard !otpLocked.contains(networkTokenRef) else { throw Self.otpLockedError() }
        var otp = SandboxOTP.generate(networkTokenRef: networkTokenRef, at: clock.now())
        otp.channel = channel
        challenges[networkTokenRef] = OTPChallenge(otp: otp)
        // Hook for flow 3b: relay the code through Provisio to the issuer's webhook.
        if relaysThroughIssuer || issuer.checksActivationCodes {
            otpChannelsByRef[networkTokenRef] = try await issuer.relayOTP(otp, token: token)
        } else if let otpRelay {
            otpChannelsByRef[networkTokenRef] = try await otpRelay(otp)
        }
        return otp
    }

    /// Checks a code the cardholder typed. Three wrong codes lock the token against OTP; an
    /// expired code needs a new one. Success reports `otp_verified` and activates the pass.
    @discardableResult
    public func verifyOTP(networkTokenRef: String, code: String) async throws -> NetworkToken {
        let token = try pendingToken(networkTokenRef)
        guard !otpLocked.contains(networkTokenRef) else { throw Self.otpLockedError() }
        guard var challenge = challenges[networkTokenRef] else {
            throw ProvisioError(.sandboxOTPNotRequested, "No one-time code was issued for this token.")
        }
        if issuer.checksActivationCodes { return try await verifyOTPWithIssuer(token, code: code) }
        guard !challenge.otp.isExpired(at: clock.now()) else {
            throw ProvisioError(.sandboxOTPExpired, "The one-time code expired; request a new one.")
        }
        guard ConstantTime.equal(code, challenge.otp.code) else {
            challenge.failedAttempts += 1
            if challenge.failedAttempts >= SandboxOTP.attemptLimit {
                otpLocked.insert(networkTokenRef)
                challenges[networkTokenRef] = nil
            } else {
                challenges[networkTokenRef] = challenge
            }
            let left = SandboxOTP.attemptLimit - challenge.failedAttempts
            throw ProvisioError(
                .sandboxOTPInvalid,
                "The one-time code is wrong; \(left) attempt\(left == 1 ? "" : "s") left before the token is locked.")
        }
        // Used up before the await, so a concurrent second submission of the code cannot pass.
        challenges[networkTokenRef] = nil
        do {
            try await issuer.report(event: .otpVerified, reasonCode: "otp_verified", token: token)
        } catch {
            if challenges[networkTokenRef] == nil { challenges[networkTokenRef] = challenge }
            throw error
        }
        return try await activate(networkTokenRef)
    }

    /// MDES's way: the issuer checks the code (`validateActivationCode`) and keeps the count of
    /// attempts; the network acts on its verdict.
    private func verifyOTPWithIssuer(_ token: NetworkToken, code: String) async throws
        -> NetworkToken
    {
        let ref = token.networkTokenRef
        guard changing.insert(ref).inserted else {
            throw ProvisioError(.sandboxNetworkTokenStateInvalid, "Another change to this token is under way; try again.")
        }
        defer { changing.remove(ref) }
        switch try await issuer.checkActivationCode(code, token: token) {
        case .correct:
            challenges[ref] = nil
            try await issuer.report(event: .otpVerified, reasonCode: "otp_verified", token: token)
            return try await activate(ref)
        case .incorrect:
            throw ProvisioError(.sandboxOTPInvalid, "The one-time code is wrong; the issuer counts the attempts left.")
        case .attemptsExhausted:
            otpLocked.insert(ref)
            challenges[ref] = nil
            throw Self.otpLockedError()
        case .expired:
            challenges[ref] = nil
            throw ProvisioError(.sandboxOTPExpired, "The one-time code expired; request a new one.")
        }
    }

    // MARK: - Network-originated lifecycle

    /// The cardholder removed the card from Wallet: the pass goes, the token is deleted.
    @discardableResult
    public func removeFromWallet(networkTokenRef: String) async throws -> NetworkToken {
        try await change(
            networkTokenRef, from: [.pendingActivation, .active, .suspended], to: .deleted, report: .removedFromWallet,
            removesPass: true
        ) { token, holder in
            if let handle = token.passSerialNumber { try await holder.remove(handle: handle, on: token.device) }
        }
    }

    /// The device was reported lost: the token and its pass are suspended.
    @discardableResult
    public func reportDeviceLost(networkTokenRef: String) async throws -> NetworkToken {
        try await change(networkTokenRef, from: [.active], to: .suspended, report: .deviceLost) { token, holder in
            if let handle = token.passSerialNumber { try await holder.setState(.suspended, handle: handle, on: token.device) }
        }
    }

    /// The token reached its end of life: deleted at the network, the pass deactivated.
    @discardableResult
    public func expireToken(networkTokenRef: String) async throws -> NetworkToken {
        try await change(
            networkTokenRef, from: [.pendingActivation, .active, .suspended], to: .deleted, report: .tokenExpired
        ) { token, holder in
            if let handle = token.passSerialNumber { try await holder.setState(.deactivated, handle: handle, on: token.device) }
        }
    }

    // MARK: - Issuer-originated (through Provisio's network connector)

    /// The issuer suspends, resumes or deletes a token. The issuer asked, so nothing is
    /// reported back; the answer carries the network's new state.
    @discardableResult
    public func applyIssuerAction(_ action: IssuerLifecycleAction, networkTokenRef: String) async throws -> NetworkToken {
        switch action {
        case .suspend:
            return try await change(networkTokenRef, from: [.active], to: .suspended, report: nil) { token, holder in
                if let handle = token.passSerialNumber { try await holder.setState(.suspended, handle: handle, on: token.device) }
            }
        case .resume:
            return try await change(networkTokenRef, from: [.suspended], to: .active, report: nil) { token, holder in
                if let handle = token.passSerialNumber { try await holder.setState(.activated, handle: handle, on: token.device) }
            }
        case .delete:
            // Wallet takes the pass off the device when the issuer deletes its token.
            return try await change(
                networkTokenRef, from: [.pendingActivation, .active, .suspended], to: .deleted, report: nil,
                removesPass: true
            ) { token, holder in
                if let handle = token.passSerialNumber { try? await holder.remove(handle: handle, on: token.device) }
            }
        }
    }

    /// The issuer reissued the card (a new expiry, name or art, or, through MDES's token update,
    /// a new number): the token keeps working under the new card and Wallet shows the new details
    /// (and last four digits) on its pass. Only a live token (pending, active or suspended) takes
    /// it; the issuer asked, so nothing is reported back.
    @discardableResult
    public func updateCardDetails(
        _ details: CardDetails, newPrimaryAccountNumber: PrimaryAccountNumber? = nil, networkTokenRef: String
    ) async throws -> NetworkToken {
        var token = try existingToken(networkTokenRef)
        guard [.pendingActivation, .active, .suspended].contains(token.state) else {
            throw ProvisioError(
                .sandboxNetworkTokenStateInvalid, "A token that is \(token.state.rawValue) takes no new card details.")
        }
        if let handle = token.passSerialNumber {
            try await holder(of: token).showDetails(
                details, newLast4: newPrimaryAccountNumber?.last4, handle: handle, on: token.device)
        }
        token = try existingToken(networkTokenRef)
        if let expiry = details.expiry { token.fundingExpiry = expiry }
        if let newPrimaryAccountNumber { token.fundingPrimaryAccountNumber = newPrimaryAccountNumber }
        tokens[networkTokenRef] = token
        return token
    }

    /// Flow 3c, and in-app authentication: the cardholder called the issuer, or the issuer's
    /// app authenticated them, and the issuer asks the network to activate the pending token.
    /// Nothing is reported back: the issuer asked.
    @discardableResult
    public func activateByIssuer(networkTokenRef: String) async throws -> NetworkToken {
        _ = try pendingToken(networkTokenRef)
        guard changing.insert(networkTokenRef).inserted else {
            throw ProvisioError(.sandboxNetworkTokenStateInvalid, "Another change to this token is under way; try again.")
        }
        defer { changing.remove(networkTokenRef) }
        return try await activate(networkTokenRef)
    }

    // MARK: - Helpers

    /// The wallet the token lives in.
    func holder(of token: NetworkToken) -> any SandboxTokenWallet {
        holders[token.networkTokenRef] ?? wallet
    }

    func existingToken(_ ref: String) throws -> NetworkToken {
        guard let token = tokens[ref] else {
            throw ProvisioError(.sandboxNetworkTokenUnknown, "The network has no token with this reference.")
        }
        return token
    }

    private func pendingToken(_ ref: String) throws -> NetworkToken {
        let token = try existingToken(ref)
        guard token.state == .pendingActivation else {
            throw ProvisioError(
                .sandboxNetworkTokenStateInvalid,
                "Only a token pending activation can be verified; this one is \(token.state.rawValue).")
        }
        return token
    }

    /// After the issuer accepted the activation: token and pass become active.
    private func activate(_ ref: String) async throws -> NetworkToken {
        var token = try existingToken(ref)
        if let handle = token.passSerialNumber {
            try await holder(of: token).setState(.activated, handle: handle, on: token.device)
        }
        token = try existingToken(ref)
        token.state = .active
        tokens[ref] = token
        challenges[ref] = nil
        return token
    }

    /// Checks the transition, reports it to the issuer first (so a refusal changes nothing
    /// here), then updates the device and the token.
    private func change(
        _ ref: String, from allowed: Set<NetworkTokenState>, to target: NetworkTokenState, report event: NetworkTokenEvent?,
        removesPass: Bool = false, device update: @Sendable (NetworkToken, any SandboxTokenWallet) async throws -> Void
    ) async throws -> NetworkToken {
        let token = try existingToken(ref)
        guard allowed.contains(token.state) else {
            throw ProvisioError(
                .sandboxNetworkTokenStateInvalid,
                "A token that is \(token.state.rawValue) cannot become \(target.rawValue.replacingOccurrences(of: "_", with: " "))."
            )
        }
        // The actor is reentrant across the awaits below: a second change to the same token
        // must not pass the check above while the first is still under way.
        guard changing.insert(ref).inserted else {
            throw ProvisioError(.sandboxNetworkTokenStateInvalid, "Another change to this token is under way; try again.")
        }
        defer { changing.remove(ref) }
        if let event { try await issuer.report(event: event, reasonCode: event.rawValue, token: token) }
        try await update(token, holder(of: token))
        var updated = try existingToken(ref)
        updated.state = target
        if removesPass { updated.passSerialNumber = nil }
        tokens[ref] = updated
        if target.isFinal {
            challenges[ref] = nil
            otpLocked.remove(ref)
        }
        return updated
    }

    private static func otpLockedError() -> ProvisioError {
        ProvisioError(
            .sandboxOTPLocked,
            "Too many wrong one-time codes (\(SandboxOTP.attemptLimit)); verify this token another way.")
    }

}
