import Foundation
import ProvisioCore

/// The yellow path: a token `NEEDS_IDENTITY_VERIFICATION`, resumed with `tokenize` and verified
/// by one of the methods the token service offered and Google supports (docs/android-wallets.md
/// §3, §4). Every activation goes through the network, which reports it to the issuer and sets
/// the token's state here.
extension SandboxGoogleWallet {
    /// TapAndPay's `tokenize(activity, issuerTokenId, tsp, displayName, network, requestCode)`:
    /// resumes identity verification for a token left pending. The sandbox answers the methods
    /// to choose from; `TAP_AND_PAY_INVALID_TOKEN_STATE` (15004) for a token that needs none.
    public func tokenize(tokenServiceProvider: GoogleTokenServiceProvider, issuerTokenID: String) async throws
        -> GoogleIdentityVerification
    {
        let token = try pendingToken(issuerTokenID, of: tokenServiceProvider)
        return GoogleIdentityVerification(
            issuerTokenID: issuerTokenID, tokenState: token.tokenState, methods: try await offeredMethods(issuerTokenID))
    }

    // MARK: - One-time code

    /// The cardholder picks a one-time code: the network issues it and relays it through the
    /// issuer (Provisio's `token.otp_requested` webhook) when so configured. The sandbox plays
    /// the cardholder's phone and returns the code.
    public func requestOTP(
        tokenServiceProvider: GoogleTokenServiceProvider, issuerTokenID: String, channel: SandboxOTPChannel = .sms
    ) async throws -> SandboxOTP {
        let installed = try await verification(.otp, issuerTokenID, of: tokenServiceProvider)
        return try await tokenService.requestOTP(networkTokenRef: installed.networkTokenRef, channel: channel)
    }

    /// What Google Wallet lists for a one-time code before sending one: each channel offered
    /// with its masked phone or email, for the cardholder to choose.
    public func oneTimeCodeOffers(tokenServiceProvider: GoogleTokenServiceProvider, issuerTokenID: String) async throws
        -> [SandboxActivationOffer]
    {
        let installed = try await verification(.otp, issuerTokenID, of: tokenServiceProvider)
        return try await tokenService.activationOffers(networkTokenRef: installed.networkTokenRef).filter {
            SandboxOTPChannel.allCases.map(\.method).contains($0.method)
        }
    }

    /// The cardholder types the code into Google Wallet; the network checks it (and locks the
    /// token against codes after three wrong ones). Answers the token's state.
    public func submitOTP(tokenServiceProvider: GoogleTokenServiceProvider, issuerTokenID: String, code: String)
        async throws -> GoogleTokenState
    {
        let installed = try await verification(.otp, issuerTokenID, of: tokenServiceProvider)
        try await tokenService.verifyOTP(networkTokenRef: installed.networkTokenRef, code: code)
        return try token(issuerTokenID, of: tokenServiceProvider).tokenState
    }

    // MARK: - App-to-app

    /// The cardholder picks the issuer's app: Google Wallet starts it with the TSP's intent (Visa's
    /// form: `{package}.a2a`, base64url JSON in `EXTRA_TEXT`, Google Play services as caller).
    public func startAppToApp(tokenServiceProvider: GoogleTokenServiceProvider, issuerTokenID: String) async throws
        -> GoogleAppToAppIntent
    {
        let installed = try await verification(.appToApp, issuerTokenID, of: tokenServiceProvider)
        let token = try token(issuerTokenID, of: tokenServiceProvider)
        appToAppStarted.insert(issuerTokenID)
        let payload = GoogleAppToAppPayload(
            panReferenceID: installed.panReferenceID, tokenRequestorID: Self.tokenRequestorID,
            tokenReferenceID: installed.networkTokenRef, panLast4: token.fpanLastFour, deviceID: stableHardwareID,
            walletAccountID: activeWalletID)
        return GoogleAppToAppIntent(
            packageName: issuerAppPackage, action: issuerAppPackage + ".a2a", extraText: payload.extraText,
            callingPackage: GoogleAppToAppIntent.googlePlayServicesPackage, issuerTokenID: issuerTokenID)
    }

    /// The issuer's app returns `STEP_UP_RESPONSE`. `approved` with activation data: Google
    /// Wallet hands the data to the network, which verifies it and reports the activation to the
    /// issuer (a refused TAV is thrown and changes nothing). `approved` without: the issuer
    /// activated the token with the network itself; Google Wallet reads the state it has.
    /// `declined` and `failure` leave the token pending, with the reason.
    public func completeAppToApp(
        tokenServiceProvider: GoogleTokenServiceProvider, issuerTokenID: String, response: GoogleStepUpResponse
    ) async throws -> GoogleStepUpOutcome {
        _ = try token(issuerTokenID, of: tokenServiceProvider)
        guard appToAppStarted.remove(issuerTokenID) != nil else {
            throw ProvisioError(
                .sandboxGoogleVerificationUnavailable, "Google Wallet started no app-to-app verification for this token.")
        }
        switch response {
        case .declined:
            return try outcome(
                issuerTokenID, tokenServiceProvider, pendingBecause: "declined: the cardholder cancelled in the issuer's app")
        case .failure:
            return try outcome(
                issuerTokenID, tokenServiceProvider, pendingBecause: "failure: the issuer's app could not verify the cardholder")
        case .approved(let activationData?):
            let installed = try await verification(.appToApp, issuerTokenID, of: tokenServiceProvider)
            do {
                try await tokenService.verifyActivationData(
                    networkTokenRef: installed.networkTokenRef, activationData: activationData)
            } catch {
                // The app may answer again with good data.
                appToAppStarted.insert(issuerTokenID)
                throw error
            }
            return try outcome(issuerTokenID, tokenServiceProvider, pendingBecause: "approved, but the token is not active")
        case .approved(nil):
            return try outcome(
                issuerTokenID, tokenServiceProvider, pendingBecause: "approved, but the token service has not activated the token"
            )
        }
    }

    // MARK: - Helpers

    /// The methods the network offered for the token that Google supports, in its order.
    func offeredMethods(_ issuerTokenID: String) async throws -> [GoogleIdentityVerificationMethod] {
        guard let installed = installed[issuerTokenID] else { throw Self.notFound() }
        let words = await tokenService.token(networkTokenRef: installed.networkTokenRef)?.activationMethods ?? []
        var methods: [GoogleIdentityVerificationMethod] = []
        for method in words.compactMap(GoogleIdentityVerificationMethod.init(networkWord:)) where !methods.contains(method) {
            methods.append(method)
        }
        return methods
    }

    /// A token pending verification, or TapAndPay's 15003 or 15004.
    private func pendingToken(_ issuerTokenID: String, of tokenServiceProvider: GoogleTokenServiceProvider) throws
        -> GoogleTokenInfo
    {
        let token = try token(issuerTokenID, of: tokenServiceProvider)
        guard token.tokenState == .needsIdentityVerification else {
            throw ProvisioError(
                .sandboxGoogleInvalidTokenState,
                "TAP_AND_PAY_INVALID_TOKEN_STATE (15004): the token is \(token.tokenState), not waiting for identity "
                    + "verification.")
        }
        return token
    }

    /// The network's names for a pending token for which `method` was offered.
    private func verification(
        _ method: GoogleIdentityVerificationMethod, _ issuerTokenID: String, of tokenServiceProvider: GoogleTokenServiceProvider
    ) async throws -> Installed {
        _ = try pendingToken(issuerTokenID, of: tokenServiceProvider)
        guard try await offeredMethods(issuerTokenID).contains(method), let installed = installed[issuerTokenID] else {
            throw ProvisioError(
                .sandboxGoogleVerificationUnavailable, "The token service did not offer \(method.rawValue) for this token.")
        }
        return installed
    }

    private func outcome(
        _ issuerTokenID: String, _ tokenServiceProvider: GoogleTokenServiceProvider, pendingBecause reason: String
    ) throws -> GoogleStepUpOutcome {
        let state = try token(issuerTokenID, of: tokenServiceProvider).tokenState
        return GoogleStepUpOutcome(issuerTokenID: issuerTokenID, tokenState: state, reason: state == .active ? nil : reason)
    }
}
