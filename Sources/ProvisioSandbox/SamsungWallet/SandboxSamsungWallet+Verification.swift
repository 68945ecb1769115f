import Foundation
import ProvisioCore

/// The yellow path in Samsung Wallet: the cardholder verifies a `PENDING_ACTIVATION` card by a
/// one-time code, in the issuer's app (app-to-app) or by calling the issuer, each through the
/// network as the network's token offers it (docs/samsung-wallet.md).
///
/// Samsung's pages describe app-to-app for Mastercard and Visa, and say American Express does
/// not support it; the sandbox offers it for those two only. They say nothing of app-to-app on a
/// watch, where the wallet cannot start the issuer's phone app for a result: the sandbox offers
/// only the one-time code and the call to the issuer there (an assumption).
extension SandboxSamsungWallet {
    /// A sandbox token requestor id for Samsung Pay in Visa's app-to-app payload (Samsung's real
    /// one is assigned by Visa and not public).
    public static let tokenRequestorID = "sbx-samsung-pay-trid"
    /// The payment app provider id in Mastercard's app-to-app payload (the sandbox's own).
    public static let paymentAppProviderID = "sbx-samsung-pay"

    /// The methods Samsung Wallet shows for this card: none unless it is `PENDING_ACTIVATION`.
    public func verificationMethods(cardID: String) async throws -> [SamsungVerificationMethod] {
        let card = try card(cardID)
        guard card.cardStatus == .pendingActivation,
            let token = await tokenService.token(networkTokenRef: card.networkTokenRef)
        else { return [] }
        // A code by email is Samsung's one-time code too, the channel chosen with it.
        var methods: [SamsungVerificationMethod] = []
        for word in token.activationMethods {
            let named = word == SandboxOTPChannel.email.method ? SandboxOTPChannel.sms.method : word
            guard let method = SamsungVerificationMethod(rawValue: named), !methods.contains(method) else { continue }
            if method != .appToApp || Self.appToAppAllowed(card) { methods.append(method) }
        }
        return methods
    }

    /// The cardholder asks for a one-time code: the network issues it and sends it through the
    /// issuer (Provisio's webhook); Samsung Wallet shows where it went (the masked channels).
    public func requestOneTimeCode(cardID: String, channel: SandboxOTPChannel = .sms) async throws
        -> [IssuerConnection.OTPChannel]
    {
        let card = try await pending(cardID, for: .oneTimeCode)
        _ = try await tokenService.requestOTP(networkTokenRef: card.networkTokenRef, channel: channel)
        return await tokenService.otpChannels(networkTokenRef: card.networkTokenRef)
    }

    /// What Samsung Wallet lists for a one-time code before sending one: each channel offered
    /// with its masked phone or email, for the cardholder to choose.
    public func oneTimeCodeOffers(cardID: String) async throws -> [SandboxActivationOffer] {
        let card = try await pending(cardID, for: .oneTimeCode)
        return try await tokenService.activationOffers(networkTokenRef: card.networkTokenRef).filter {
            SandboxOTPChannel.allCases.map(\.method).contains($0.method)
        }
    }

    /// The cardholder types the code; the network checks it and activates the card.
    public func submitOneTimeCode(_ code: String, cardID: String) async throws -> SamsungCard {
        let card = try await pending(cardID, for: .oneTimeCode)
        try await tokenService.verifyOTP(networkTokenRef: card.networkTokenRef, code: code)
        return try self.card(cardID)
    }

    /// "Open banking app": the intent Samsung Wallet starts the issuer's app with, in the form
    /// of the card's network (`SamsungAppToAppRequest`).
    public func openBankingApp(cardID: String) async throws -> SamsungAppToAppRequest {
        let card = try await pending(cardID, for: .appToApp)
        let fields: [String: String]
        let extraText: String
        let action: String
        switch card.tokenizationProvider {
        case .mastercard:
            fields = [
                "paymentAppProviderId": Self.paymentAppProviderID,
                "paymentAppInstanceId": try walletInfoBypassingStatus(for: card).walletDMID,
                "tokenUniqueReference": card.networkTokenRef, "accountPanSuffix": card.last4FPAN,
                "accountExpiry": card.fundingExpiry ?? "",
            ]
            extraText = try Self.json(fields).base64EncodedString()
            action = SamsungAppToAppRequest.mastercardAction
        default:
            let info = try walletInfoBypassingStatus(for: card)
            fields = [
                "panReferenceID": card.primaryAccountIdentifier, "tokenRequestorID": Self.tokenRequestorID,
                "tokenReferenceID": card.networkTokenRef, "panLast4": card.last4FPAN, "deviceID": info.deviceID,
                "walletAccountID": info.walletUserID,
            ]
            extraText = BinaryText.base64URL(try Self.json(fields))
            action = SamsungAppToAppRequest.visaAction
        }
        return SamsungAppToAppRequest(
            action: action, extraText: extraText, tokenizationProvider: card.tokenizationProvider, cardID: cardID)
    }

    /// The issuer's app answers. `accepted` with an activation code: Samsung Wallet hands it to
    /// the network, which checks it (`verifyActivationData`) and activates the card; with none,
    /// the bank activated the token through the network itself. Any other answer leaves the card
    /// pending. Returns the card as it is now.
    public func completeAppToApp(_ request: SamsungAppToAppRequest, result: SamsungAppToAppResult) async throws
        -> SamsungCard
    {
        let card = try card(request.cardID)
        if case .accepted(let code?) = result {
            _ = try await pending(request.cardID, for: .appToApp)
            try await tokenService.verifyActivationData(networkTokenRef: card.networkTokenRef, activationData: code)
        }
        return try self.card(request.cardID)
    }

    // MARK: - Helpers

    /// The card, when it is pending and `method` is one Samsung Wallet offers for it;
    /// `sandbox_samsung_not_supported` (`ERROR_NOT_SUPPORTED`, -3) otherwise.
    private func pending(_ cardID: String, for method: SamsungVerificationMethod) async throws -> SamsungCard {
        let card = try card(cardID)
        guard card.cardStatus == .pendingActivation else {
            throw ProvisioError(
                .sandboxSamsungNotSupported,
                "\(SamsungErrorCode.notSupported): the card is \(card.cardStatus.rawValue), not PENDING_ACTIVATION.")
        }
        guard try await verificationMethods(cardID: cardID).contains(method) else {
            throw ProvisioError(
                .sandboxSamsungNotSupported,
                "\(SamsungErrorCode.notSupported): \(method.rawValue) is not offered for this card"
                    + (method == .appToApp ? " (app-to-app: Mastercard and Visa, on the phone)." : "."))
        }
        return card
    }

    private static func appToAppAllowed(_ card: SamsungCard) -> Bool {
        [.mastercard, .visa].contains(card.tokenizationProvider) && card.deviceType == .phone
    }

    /// The wallet's own ids for the card's device (the wallet knows them whatever the status).
    private func walletInfoBypassingStatus(for card: SamsungCard) throws -> SamsungWalletInfo {
        let device = device(of: card)
        return SamsungWalletInfo(deviceID: device.identifier, walletUserID: walletUserID, walletDMID: dmID(of: device))
    }

    private static func json(_ fields: [String: String]) throws -> Data {
        try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    }
}
