import Foundation
import ProvisioCore
import ProvisioOpenPGP

/// Google Wallet on an Android phone in the sandbox, as the issuer's app reaches it through
/// TapAndPay (docs/android-wallets.md §1, §3, §4; what is modelled from which source, and what
/// is assumed, is listed in §7).
///
/// - **Unified Push Provisioning** (`beginPushTokenize`, `completePushTokenize`, or
///   `pushTokenize(…, generator:)` in one call): Google opens a server session and asks the
///   app's `PaymentCredentialsGenerator` for both opaque payment cards. It opens the Google OPC
///   with its own OpenPGP key (`googleKey`), checks it is signed by a key the issuer registered
///   with Google (`registerIssuerKey`), names this session and ends in the push's last digits,
///   then hands the TSP OPC to the token service as the legacy path does, and saves the card to
///   the Google Account (`cardsOnFile`) once the device token is there.
/// - **Bounce provisioning** (`beginBounceProvisioning`): Google Wallet starts the issuer's app;
///   the app's push, marked bounce-provisioned, marks the token.
/// - **Legacy** `pushTokenize` with the TSP OPC alone.
/// - **The yellow path** (`tokenize`, then a one-time code, app-to-app in Visa's form, or the
///   issuer's customer service), each through the network, which reports the activation to
///   the issuer.
/// - **The cardholder's deletion** (`requestDeleteToken`, or in Wallet's own screens) reaches
///   the network, which reports it to the issuer; the token is then absent.
///
/// The token service provider (the sandbox's card network) opens the TSP OPC, asks the issuer
/// to decide and installs the token here: `TOKEN_STATE_ACTIVE` on green,
/// `TOKEN_STATE_NEEDS_IDENTITY_VERIFICATION` on yellow; red and a card the TSP cannot open are
/// refusals. The wallet never keeps a card number, only the last four digits (the Google OPC's
/// number is read, compared and dropped). An actor: tokens and sessions change atomically; the
/// network's calls back arrive while a push or a deletion awaits it (actors are reentrant).
///
/// Assumed, as no public page says: `listTokens` lists every token (whether Google scopes it to
/// the calling issuer is not public); one issuer app per wallet, whose signing keys are the
/// registered ones; the limits below.
public actor SandboxGoogleWallet: SandboxTokenWallet {
    /// TapAndPay's `TOKEN_REQUESTOR_ID_WALLET` ([MICROG]): the token requestor Google names.
    public static let tokenRequestorID = "google_wallet"
    /// How long a UPP session (and a bounce) waits for the app (assumed; Google's is not public).
    public static let sessionLifetime: TimeInterval = 10 * 60
    /// UPP sessions open at once (assumed).
    public static let maximumOpenSessions = 8
    /// Issuer signing keys registered with Google (assumed; Google asks partners to rotate, so a
    /// few at once).
    public static let maximumIssuerKeys = 8
    /// The longest opaque payment card Google takes in a push (each of the two).
    public static let maximumOPCBytes = GoogleOpaquePaymentCard.maximumOPCLength
    /// The issuer's app in the sandbox, when none is named.
    public static let defaultIssuerAppPackage = "io.provisio.sandbox.issuer"

    public nonisolated let walletKind = Wallet.googlePay
    /// The Android phone. Its identifier (a hash of its hardware-backed key) is what
    /// `getStableHardwareId` answers: one per device, the same across wallets.
    public nonisolated let phone: SandboxDevice
    /// `getActiveWalletId`.
    public nonisolated let activeWalletID: String
    /// The token service provider the wallet sends pushed cards to: the sandbox's one network
    /// plays every `TOKEN_PROVIDER_*`.
    public nonisolated let tokenService: SandboxNetworkTokenService
    /// Google's key pair for Google OPCs; nil for a wallet that only takes legacy pushes.
    public nonisolated let googleKey: SandboxGoogleKey?
    /// Judges session lifetimes and OpenPGP key validity.
    public nonisolated let clock: any TimeSource
    /// The issuer's app: what bounce provisioning and app-to-app start.
    public nonisolated let issuerAppPackage: String

    /// Tokens by issuer token id, and the order they arrived in.
    var tokens: [String: GoogleTokenInfo] = [:]
    var order: [String] = []
    /// What the network told the wallet of each token, by issuer token id.
    var installed: [String: Installed] = [:]
    /// Push-tokenize calls the network has not answered yet, by the wallet's request id.
    var pushes: [String: Push] = [:]
    /// Open UPP sessions by server session id.
    var sessions: [String: GooglePushTokenizeSession] = [:]
    /// The issuer's signing keys, registered with Google out of band.
    var issuerKeys: [OpenPGPPublicKey] = []
    /// The bounce provisioning Google Wallet started and the app has not pushed for yet.
    var bounce: GoogleInitiateProvisioningIntent?
    /// Cards saved to the Google Account, oldest first.
    var savedCards: [GoogleCardOnFile] = []
    /// Tokens whose app-to-app intent Google Wallet started and the issuer's app has not answered.
    var appToAppStarted: Set<String> = []

    struct Push: Sendable {
        var network: GoogleCardNetwork
        var tokenServiceProvider: GoogleTokenServiceProvider
        var displayName: String
        var lastDigits: String
        var isBounceProvisioned: Bool
    }

    /// The network's names for an installed token: what app-to-app and deletion need.
    struct Installed: Sendable {
        var networkTokenRef: String
        var panReferenceID: String
    }

    /// - Parameters:
    ///   - hardwareKey: the phone's hardware-backed key (a fresh one unless given).
    ///   - googleKey: Google's key pair for Google OPCs (`SandboxGoogleKey.generate` or
    ///     `loadOrGenerate`); without one, UPP pushes are refused.
    ///   - clock: the network's wallet's clock unless given.
    public init(
        tokenService: SandboxNetworkTokenService, hardwareKey: SandboxSecureElement = SandboxSecureElement(),
        googleKey: SandboxGoogleKey? = nil, clock: (any TimeSource)? = nil,
        issuerAppPackage: String = SandboxGoogleWallet.defaultIssuerAppPackage
    ) {
        self.tokenService = tokenService
        self.phone = SandboxDevice(kind: .androidPhone, secureElementPublicKey: hardwareKey.publicKey)
        self.activeWalletID = SandboxRandom.identifier(prefix: "", byteCount: 12)
        self.googleKey = googleKey
        self.clock = clock ?? tokenService.wallet.clock
        self.issuerAppPackage = issuerAppPackage
    }

    /// `getStableHardwareId`.
    public nonisolated var stableHardwareID: String { phone.identifier }

    // MARK: - Legacy push provisioning (the issuer's app)

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
        try Self.checkPush(displayName: displayName, lastDigits: lastDigits)
        let opaquePaymentCard = try Self.opaquePaymentCard(opc)
        return try await tokenize(
            opaquePaymentCard,
            Push(
                network: network, tokenServiceProvider: tokenServiceProvider, displayName: displayName, lastDigits: lastDigits,
                isBounceProvisioned: false),
            savesCard: false)
    }

    /// Hands the TSP OPC to the network and waits for its install: the push's result, or
    /// TapAndPay's refusal.
    func tokenize(_ opaquePaymentCard: String, _ push: Push, savesCard: Bool) async throws -> GooglePushTokenizeResult {
        let requestID = SandboxRandom.identifier(prefix: "sbx_push_")
        pushes[requestID] = push
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
            resultCode: GooglePushTokenizeResult.resultOK, issuerTokenID: token.issuerTokenID, tokenState: token.tokenState,
            cardResult: savesCard, isBounceProvisioned: push.isBounceProvisioned)
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
        try token(issuerTokenID, of: tokenServiceProvider).tokenState
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

    /// The cards UPP saved to the cardholder's Google Account, oldest first (no card numbers).
    public func cardsOnFile() -> [GoogleCardOnFile] { savedCards }

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
            network: push.network, tokenServiceProvider: push.tokenServiceProvider, displayName: push.displayName,
            isBounceProvisioned: push.isBounceProvisioned)
        installed[card.issuerTokenID] = Installed(
            networkTokenRef: card.networkTokenRef, panReferenceID: card.primaryAccountIdentifier)
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
        installed[handle] = nil
        appToAppStarted.remove(handle)
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

    /// The token of that TSP with that issuer token id, or TapAndPay's 15003.
    func token(_ issuerTokenID: String, of tokenServiceProvider: GoogleTokenServiceProvider) throws -> GoogleTokenInfo {
        guard let token = tokens[issuerTokenID], token.tokenServiceProvider == tokenServiceProvider else {
            throw Self.notFound()
        }
        return token
    }

    static func checkPush(displayName: String, lastDigits: String) throws {
        guard lastDigits.utf8.count == 4, lastDigits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw ProvisioError(.sandboxGoogleRequestInvalid, "lastDigits must be the card's last four digits.")
        }
        guard !displayName.isEmpty else {
            throw ProvisioError(.sandboxGoogleRequestInvalid, "The push-tokenize request has no display name.")
        }
    }

    /// The TSP OPC as the network takes it: the UTF-8 text of the bytes, bounded.
    static func opaquePaymentCard(_ opc: Data) throws -> String {
        guard !opc.isEmpty, let text = String(data: opc, encoding: .utf8) else {
            throw ProvisioError(.sandboxGoogleRequestInvalid, "The push-tokenize request has no opaque payment card.")
        }
        guard opc.count <= maximumOPCBytes else {
            throw ProvisioError(
                .sandboxGoogleRequestInvalid, "The opaque payment card is longer than \(maximumOPCBytes) bytes.")
        }
        return text
    }

    private func checkDevice(_ device: SandboxDevice) throws {
        guard device == phone else {
            throw ProvisioError(.sandboxDeviceUnavailable, "This Google Wallet is on another Android phone.")
        }
    }

    static func notFound() -> ProvisioError {
        ProvisioError(
            .sandboxGoogleTokenNotFound, "TAP_AND_PAY_TOKEN_NOT_FOUND (15003): no such token in the active wallet.")
    }
}
