import Foundation
import ProvisioCore
import ProvisioOpenPGP

/// Unified Push Provisioning and bounce provisioning (docs/android-wallets.md §1, §2).
extension SandboxGoogleWallet {
    // MARK: - The issuer's keys (out of band)

    /// The issuer gives Google the public half of its signing key during onboarding ([G-PGP]'s key
    /// exchange); Google then accepts Google OPCs signed by it. Registering a key twice is a
    /// no-op; more than `maximumIssuerKeys` is refused.
    public func registerIssuerKey(_ publicKey: OpenPGPPublicKey) throws {
        guard !issuerKeys.contains(where: { $0.fingerprint == publicKey.fingerprint }) else { return }
        guard issuerKeys.count < Self.maximumIssuerKeys else {
            throw ProvisioError(
                .sandboxGoogleRequestInvalid, "Google already holds \(Self.maximumIssuerKeys) signing keys for this issuer.")
        }
        issuerKeys.append(publicKey)
    }

    /// The fingerprints of the issuer's registered signing keys, oldest first.
    public func issuerKeyFingerprints() -> [String] { issuerKeys.map(\.fingerprint) }

    // MARK: - Bounce provisioning (Google Wallet starts it)

    /// The cardholder picked the issuer's card in Google Wallet: Google Wallet starts the issuer's
    /// app with `ACTION_INITIATE_PROVISIONING`. The app's next push marked bounce-provisioned,
    /// within `sessionLifetime`, answers it (a new bounce replaces one not answered).
    public func beginBounceProvisioning() -> GoogleInitiateProvisioningIntent {
        let intent = GoogleInitiateProvisioningIntent(
            action: GoogleInitiateProvisioningIntent.actionInitiateProvisioning, packageName: issuerAppPackage,
            expiresAt: clock.now().addingTimeInterval(Self.sessionLifetime))
        bounce = intent
        return intent
    }

    // MARK: - UPP in two steps (the sandbox's HTTP API has the issuer's app in between)

    /// The app's `pushTokenize` with a `PaymentCredentialsGenerator`: what it passes (network, TSP,
    /// display name, last digits, address, and `setIsBounceProvisioned`). Google opens a server
    /// session and answers the `GeneratePaymentCredentialsRequest` it would hand the generator.
    ///
    /// Refused: a wallet without a Google key (`sandbox_google_key_invalid`), a request Google
    /// cannot take, `maximumOpenSessions` open (`sandbox_google_session_limit`), a
    /// bounce-provisioned push Google Wallet did not start (`sandbox_google_bounce_unknown`).
    public func beginPushTokenize(
        network: GoogleCardNetwork, tokenServiceProvider: GoogleTokenServiceProvider, displayName: String,
        lastDigits: String, address: GoogleUserAddress? = nil, isBounceProvisioned: Bool = false
    ) throws -> GooglePushTokenizeSession {
        guard googleKey != nil else {
            throw ProvisioError(
                .sandboxGoogleKeyInvalid, "This Google Wallet has no OpenPGP key: it takes legacy pushes only.")
        }
        try Self.checkPush(displayName: displayName, lastDigits: lastDigits)
        let now = clock.now()
        sessions = sessions.filter { !$0.value.isExpired(at: now) }
        guard sessions.count < Self.maximumOpenSessions else {
            throw ProvisioError(
                .sandboxGoogleSessionLimit,
                "Google Wallet already has \(Self.maximumOpenSessions) pushes open; complete one or let it expire.")
        }
        if isBounceProvisioned {
            guard let bounce, now < bounce.expiresAt else {
                throw ProvisioError(
                    .sandboxGoogleBounceUnknown, "The push is marked bounce-provisioned, but Google Wallet started none.")
            }
            self.bounce = nil
        }
        let session = GooglePushTokenizeSession(
            credentialsRequest: GeneratePaymentCredentialsRequest(
                serverSessionID: SandboxRandom.identifier(prefix: "sbx_gss_", byteCount: 24), stableHardwareID: stableHardwareID,
                walletID: activeWalletID, tokenRequestorID: Self.tokenRequestorID, googleOpaquePaymentCardRequested: true,
                auxiliaryOpaquePaymentCardRequested: false),
            network: network, tokenServiceProvider: tokenServiceProvider, displayName: displayName, lastDigits: lastDigits,
            address: address, isBounceProvisioned: isBounceProvisioned, createdAt: now,
            expiresAt: now.addingTimeInterval(Self.sessionLifetime))
        sessions[session.id] = session
        return session
    }

    /// The generator's answer reaches Google. Once per session, within its lifetime. Google opens
    /// the Google OPC and checks it (any failure is a `sandbox_google_opc_*` refusal, TapAndPay's
    /// `TAP_AND_PAY_SAVE_CARD_ERROR`, before the TSP sees anything), then hands the TSP OPC to the
    /// token service as a legacy push does (15024, 15022 as there), and saves the card to the
    /// Google Account once the device token is installed.
    ///
    /// Assumed: when its own credential fails Google tokenizes nothing (whether it would still
    /// tokenize the device is not public), and it saves the card only with the device token.
    public func completePushTokenize(session id: String, credentials: GeneratedPaymentCredentials) async throws
        -> GooglePushTokenizeResult
    {
        // Used up before any await: a second answer for the session cannot pass.
        guard let session = sessions.removeValue(forKey: id) else {
            throw ProvisioError(
                .sandboxGoogleSessionUnknown, "No open push has this server session id (never begun, or already answered).")
        }
        guard !session.isExpired(at: clock.now()) else {
            throw ProvisioError(
                .sandboxGoogleSessionExpired,
                "The push's session expired after \(Int(Self.sessionLifetime)) seconds; the app must push again.")
        }
        let opaquePaymentCard = try Self.opaquePaymentCard(credentials.opaquePaymentCard)
        let card = try openGoogleOPC(credentials.googleOpaquePaymentCard, for: session)
        let result = try await tokenize(
            opaquePaymentCard,
            Push(
                network: session.network, tokenServiceProvider: session.tokenServiceProvider,
                displayName: session.displayName, lastDigits: session.lastDigits,
                isBounceProvisioned: session.isBounceProvisioned),
            savesCard: card != nil)
        if let card {
            savedCards.append(
                GoogleCardOnFile(
                    fpanLastFour: String(card.accountNumber.suffix(4)), expiryMonth: card.expiryMonth,
                    expiryYear: card.expiryYear, serverSessionID: session.id, savedAt: clock.now()))
        }
        return result
    }

    /// UPP in one call: begin, ask `generator`, complete. A generator that fails gives up the
    /// session and its error reaches the app as is.
    public func pushTokenize(
        network: GoogleCardNetwork, tokenServiceProvider: GoogleTokenServiceProvider, displayName: String,
        lastDigits: String, address: GoogleUserAddress?, generator: any PaymentCredentialsGenerator,
        isBounceProvisioned: Bool = false
    ) async throws -> GooglePushTokenizeResult {
        let session = try beginPushTokenize(
            network: network, tokenServiceProvider: tokenServiceProvider, displayName: displayName, lastDigits: lastDigits,
            address: address, isBounceProvisioned: isBounceProvisioned)
        let credentials: GeneratedPaymentCredentials
        do {
            credentials = try await generator.generate(session.credentialsRequest)
        } catch {
            sessions[session.id] = nil
            throw error
        }
        return try await completePushTokenize(session: session.id, credentials: credentials)
    }

    /// The push's open sessions, oldest first (for the sandbox's API to show).
    public func openSessions() -> [GooglePushTokenizeSession] {
        let now = clock.now()
        return sessions.values.filter { !$0.isExpired(at: now) }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    // MARK: - The Google OPC

    /// Opens the Google OPC as Google does (`GoogleOpaquePaymentCard.open`: base64 in either
    /// alphabet, decrypted with Google's keys, signed by a registered issuer key, naming this
    /// session) and checks it ends in the push's last digits. Nil when Google did not ask for
    /// one and none came. No message repeats the OPC or its number.
    private func openGoogleOPC(_ data: Data?, for session: GooglePushTokenizeSession) throws -> GoogleOpaquePaymentCard? {
        guard let data, !data.isEmpty else {
            guard !session.credentialsRequest.googleOpaquePaymentCardRequested else {
                throw ProvisioError(
                    .sandboxGoogleOpcMissing,
                    "TAP_AND_PAY_SAVE_CARD_ERROR (15019): Google asked for a Google opaque payment card and got none.")
            }
            return nil
        }
        guard let googleKey else {
            throw ProvisioError(.sandboxGoogleKeyInvalid, "This Google Wallet has no OpenPGP key.")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ProvisioError(
                .sandboxGoogleOpcUnreadable, "TAP_AND_PAY_SAVE_CARD_ERROR (15019): the Google opaque payment card is not text.")
        }
        let card: GoogleOpaquePaymentCard
        do {
            card = try GoogleOpaquePaymentCard.open(
                text, googleKeys: googleKey.secretKeys, issuers: issuerKeys, serverSessionID: session.id, at: clock.now())
        } catch let error as OpenPGPError {
            switch error.code {
            case .unknownSigner, .unsigned:
                throw ProvisioError(
                    .sandboxGoogleOpcSignerUnknown,
                    "TAP_AND_PAY_SAVE_CARD_ERROR (15019): the Google opaque payment card is not signed by a key the issuer "
                        + "registered with Google (\(error.code.rawValue)).")
            case .googleOPCSessionMismatch:
                throw ProvisioError(
                    .sandboxGoogleOpcSessionMismatch,
                    "TAP_AND_PAY_SAVE_CARD_ERROR (15019): the Google opaque payment card names another push's server session.")
            default:
                throw ProvisioError(
                    .sandboxGoogleOpcUnreadable,
                    "TAP_AND_PAY_SAVE_CARD_ERROR (15019): Google cannot open the Google opaque payment card "
                        + "(\(error.code.rawValue)).")
            }
        }
        guard card.accountNumber.hasSuffix(session.lastDigits) else {
            throw ProvisioError(
                .sandboxGoogleOpcCardMismatch,
                "TAP_AND_PAY_SAVE_CARD_ERROR (15019): the Google opaque payment card is for another card than the push's "
                    + "last digits.")
        }
        return card
    }
}
