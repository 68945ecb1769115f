import Foundation
import ProvisioCore

/// Google Wallet on an Android phone in the sandbox, as the issuer's app reaches it through
/// TapAndPay's legacy push provisioning (docs/android-wallets.md §3).
///
/// `pushTokenize` hands the opaque payment card to the token service provider (the sandbox's
/// card network), which opens it, asks the issuer to decide and installs the token here:
/// `TOKEN_STATE_ACTIVE` on green, `TOKEN_STATE_NEEDS_IDENTITY_VERIFICATION` on yellow; red and
/// a card the TSP cannot open are refusals. The wallet never sees the card number, only the
/// last four digits the app and the network name. An actor: tokens change atomically; the
/// network's install arrives while `pushTokenize` awaits it (actors are reentrant).
///
/// Not modelled yet: UPP, `tokenize` (the yellow path resumed), `requestDeleteToken`, the
/// status codes the sandbox has no cause for. `listTokens` lists every token: whether Google
/// scopes it to the calling issuer is not public.
public actor SandboxGoogleWallet: SandboxTokenWallet {
    public nonisolated let walletKind = Wallet.googlePay
    /// The Android phone. Its identifier (a hash of its hardware-backed key) is what
    /// `getStableHardwareId` answers: one per device, the same across wallets.
    public nonisolated let phone: SandboxDevice
    /// `getActiveWalletId`.
    public nonisolated let activeWalletID: String
    /// The token service provider the wallet sends pushed cards to: the sandbox's one network
    /// plays every `TOKEN_PROVIDER_*`.
    public nonisolated let tokenService: SandboxNetworkTokenService

    /// Tokens by issuer token id, and the order they arrived in.
    private var tokens: [String: GoogleTokenInfo] = [:]
    private var order: [String] = []
    /// Push-tokenize calls the network has not answered yet, by the wallet's request id.
    private var pushes: [String: Push] = [:]

    private struct Push: Sendable {
        var network: GoogleCardNetwork
        var tokenServiceProvider: GoogleTokenServiceProvider
        var displayName: String
        var lastDigits: String
    }

    /// - Parameter hardwareKey: the phone's hardware-backed key (a fresh one unless given).
    public init(tokenService: SandboxNetworkTokenService, hardwareKey: SandboxSecureElement = SandboxSecureElement()) {
        self.tokenService = tokenService
        self.phone = SandboxDevice(kind: .androidPhone, secureElementPublicKey: hardwareKey.publicKey)
        self.activeWalletID = SandboxRandom.identifier(prefix: "", byteCount: 12)
    }

    /// `getStableHardwareId`.
    public nonisolated var stableHardwareID: String { phone.identifier }

    // MARK: - Push provisioning (the issuer's app)

    /// TapAndPay's `pushTokenize` with a `PushTokenizeRequest`: the opaque payment card (the
    /// UTF-8 bytes of what the issuer's backend returned), network, TSP, display name, the
    /// card's last digits and the cardholder's address. `RESULT_OK` with the issuer token id,
    /// or a refusal: `sandbox_google_tokenization_declined` (TapAndPay's
    /// `TAP_AND_PAY_TOKENIZATION_DECLINED`, 15022) when the issuer declines,
    /// `sandbox_google_tokenize_error` (`TAP_AND_PAY_TOKENIZE_ERROR`, 15024) when the TSP refuses
    /// the card (it cannot open it, or it was built for another wallet).
    public func pushTokenize(
        opc: Data, network: GoogleCardNetwork, tokenServiceProvider: GoogleTokenServiceProvider, displayName: String,
        lastDigits: String, address: GoogleUserAddress?
    ) async throws -> GooglePushTokenizeResult {
        guard !opc.isEmpty, let opaquePaymentCard = String(data: opc, encoding: .utf8) else {
            throw ProvisioError(.sandboxGoogleRequestInvalid, "The push-tokenize request has no opaque payment card.")
        }
        guard lastDigits.utf8.count == 4, lastDigits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw ProvisioError(.sandboxGoogleRequestInvalid, "lastDigits must be the card's last four digits.")
        }
        guard !displayName.isEmpty else {
            throw ProvisioError(.sandboxGoogleRequestInvalid, "The push-tokenize request has no display name.")
        }
        let requestID = SandboxRandom.identifier(prefix: "sbx_push_")
        pushes[requestID] = Push(
            network: network, tokenServiceProvider: tokenServiceProvider, displayName: displayName, lastDigits: lastDigits)
        defer { pushes[requestID] = nil }
        let outcome: NetworkProvisioningOutcome
        do {
            outcome = try await tokenService.provision(
                opaquePaymentCard: opaquePaymentCard, into: self, on: phone, walletRequestID: requestID)
        } catch let error as ProvisioError {
            // The app sees TapAndPay's status; the TSP's own reason is kept for the tester.
            throw ProvisioError(
                .sandboxGoogleTokenizeError,
                "TAP_AND_PAY_TOKENIZE_ERROR (15024): the token service refused the card (\(error.code.rawValue)).")
        }
        guard outcome.decision != .decline else {
            throw ProvisioError(
                .sandboxGoogleTokenizationDeclined,
                "TAP_AND_PAY_TOKENIZATION_DECLINED (15022): the issuer declined the card"
                    + (outcome.reasons.isEmpty ? "." : " (\(outcome.reasons.joined(separator: ", "))).")
            )
        }
        guard let token = tokens[outcome.issuerTokenID] else {
            // Gone between the install and here (deleted at once): nothing for the app to use.
            throw Self.notFound()
        }
        return GooglePushTokenizeResult(
            resultCode: GooglePushTokenizeResult.resultOK, issuerTokenID: token.issuerTokenID, tokenState: token.tokenState)
    }

    // MARK: - Reading (the issuer's app)

    /// `listTokens`: the wallet's tokens, oldest first.
    public func listTokens() -> [GoogleTokenInfo] {
        order.compactMap { tokens[$0] }
    }

    /// `getTokenStatus(tsp, issuerTokenId)`: the token's state; `sandbox_google_token_not_found`
    /// (`TAP_AND_PAY_TOKEN_NOT_FOUND`, 15003) when no token of that TSP has that id.
    public func getTokenStatus(tokenServiceProvider: GoogleTokenServiceProvider, issuerTokenID: String) throws
        -> GoogleTokenState
    {
        guard let token = tokens[issuerTokenID], token.tokenServiceProvider == tokenServiceProvider else {
            throw Self.notFound()
        }
        return token.tokenState
    }

    /// `isTokenized`: whether a token for a card with these last digits, network and TSP is in
    /// this wallet (in any state).
    public func isTokenized(
        lastDigits: String, network: GoogleCardNetwork, tokenServiceProvider: GoogleTokenServiceProvider
    ) -> Bool {
        tokens.values.contains {
            $0.fpanLastFour == lastDigits && $0.network == network && $0.tokenServiceProvider == tokenServiceProvider
        }
    }

    // MARK: - SandboxTokenWallet (the network)

    public func install(_ card: SandboxWalletCard, state: SandboxPassActivationState, on device: SandboxDevice) throws
        -> String
    {
        try checkDevice(device)
        guard let requestID = card.walletRequestID, let push = pushes[requestID] else {
            throw ProvisioError(.sandboxGoogleRequestInvalid, "Google Wallet installs only tokens for its own push requests.")
        }
        guard tokens[card.issuerTokenID] == nil else {
            throw ProvisioError(.sandboxGoogleRequestInvalid, "Google Wallet already has a token with this issuer token id.")
        }
        guard let tokenState = Self.tokenState(state) else {
            throw ProvisioError(.sandboxGoogleRequestInvalid, "A token is not installed \(state.rawValue).")
        }
        tokens[card.issuerTokenID] = GoogleTokenInfo(
            issuerTokenID: card.issuerTokenID, fpanLastFour: card.fundingLast4, tokenState: tokenState,
            network: push.network, tokenServiceProvider: push.tokenServiceProvider, displayName: push.displayName)
        order.append(card.issuerTokenID)
        return card.issuerTokenID
    }

    public func setState(_ state: SandboxPassActivationState, handle: String, on device: SandboxDevice) throws {
        try checkDevice(device)
        guard var token = tokens[handle] else { throw Self.notFound() }
        // TapAndPay has no deleted or deactivated state: such a token is gone from the wallet.
        guard let tokenState = Self.tokenState(state) else {
            try remove(handle: handle, on: device)
            return
        }
        token.tokenState = tokenState
        tokens[handle] = token
    }

    public func remove(handle: String, on device: SandboxDevice) throws {
        try checkDevice(device)
        guard tokens.removeValue(forKey: handle) != nil else { throw Self.notFound() }
        order.removeAll { $0 == handle }
    }

    /// `TokenInfo` shows only the card's last four digits of what a reissue changes.
    public func showDetails(_ details: CardDetails, newLast4: String?, handle: String, on device: SandboxDevice) throws {
        try checkDevice(device)
        guard var token = tokens[handle] else { throw Self.notFound() }
        if let newLast4 { token.fpanLastFour = newLast4 }
        tokens[handle] = token
    }

    // MARK: - Helpers

    /// The network's word for a card's state in TapAndPay's; nil for one TapAndPay has no
    /// state for (deactivated: the token is gone).
    static func tokenState(_ state: SandboxPassActivationState) -> GoogleTokenState? {
        switch state {
        case .activated: .active
        case .requiresActivation: .needsIdentityVerification
        case .activating: .pending
        case .suspended: .suspended
        case .deactivated: nil
        }
    }

    private func checkDevice(_ device: SandboxDevice) throws {
        guard device == phone else {
            throw ProvisioError(.sandboxDeviceUnavailable, "This Google Wallet is on another Android phone.")
        }
    }

    private static func notFound() -> ProvisioError {
        ProvisioError(
            .sandboxGoogleTokenNotFound, "TAP_AND_PAY_TOKEN_NOT_FOUND (15003): no such token in the active wallet.")
    }
}
