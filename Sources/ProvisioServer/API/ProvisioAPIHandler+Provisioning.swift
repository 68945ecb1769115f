import ProvisioAPI
import ProvisioCore
import ProvisioCrypto

/// Provisioning a card into a wallet, from the issuer's backend (`/v1/cards/{id}/provisioning/…`)
/// or from its app (`/v1/mobile/cards/{id}/provisioning/…`). PassKit's challenge is read into a
/// `PassKitChallenge` here, once; the card's PAN never leaves the services as text.
extension ProvisioAPIHandler {
    func provisionApplePay(_ input: Operations.ProvisionApplePay.Input) async throws -> Operations.ProvisionApplePay.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let card = try await services.cards.card(id: try Self.cardID(input.path.id), tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(try await applePay(card, body))))
    }

    func provisionGooglePay(_ input: Operations.ProvisionGooglePay.Input) async throws -> Operations.ProvisionGooglePay.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let card = try await services.cards.card(id: try Self.cardID(input.path.id), tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(try await googlePay(card, body))))
    }

    func provisionSamsungPay(_ input: Operations.ProvisionSamsungPay.Input) async throws -> Operations.ProvisionSamsungPay.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let card = try await services.cards.card(id: try Self.cardID(input.path.id), tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(try await samsungPay(card, body))))
    }

    func provisionApplePayFromMobile(_ input: Operations.ProvisionApplePayFromMobile.Input) async throws
        -> Operations.ProvisionApplePayFromMobile.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let card = try await mobileCard(try Self.cardID(input.path.id), wallet: .applePay)
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(try await applePay(card, body))))
    }

    func provisionGooglePayFromMobile(_ input: Operations.ProvisionGooglePayFromMobile.Input) async throws
        -> Operations.ProvisionGooglePayFromMobile.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let card = try await mobileCard(try Self.cardID(input.path.id), wallet: .googlePay)
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(try await googlePay(card, body))))
    }

    func provisionSamsungPayFromMobile(_ input: Operations.ProvisionSamsungPayFromMobile.Input) async throws
        -> Operations.ProvisionSamsungPayFromMobile.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let card = try await mobileCard(try Self.cardID(input.path.id), wallet: .samsungPay)
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(try await samsungPay(card, body))))
    }

    // MARK: Shared by both audiences

    private func applePay(_ card: CardRecord, _ body: Components.Schemas.ApplePayRequest) async throws
        -> Components.Schemas.ApplePayPayload
    {
        // A challenge refused here is still an attempt on this card: the service records it.
        let challenge: Result<PassKitChallenge, ProvisioError>
        do {
            challenge = .success(
                try PassKitChallenge(
                    certificates: body.certificates, nonceText: body.nonce, nonceSignatureText: body.nonceSignature,
                    schemeName: body.encryptionScheme))
        } catch let refusal as ProvisioError {
            challenge = .failure(refusal)
        }
        let payload = try await services.provisioning.applePay(
            card: card, deviceType: body.deviceType.map(DeviceType.init), challenge: challenge)
        return .init(
            encryptedPassData: payload.encryptedPassData, activationData: payload.activationData,
            ephemeralPublicKey: payload.ephemeralPublicKey, wrappedKey: payload.wrappedKey)
    }

    private func googlePay(_ card: CardRecord, _ body: Components.Schemas.PushProvisioningRequest) async throws
        -> Components.Schemas.WalletPushData
    {
        // Read before the service runs: a refused request is the caller's, not an attempt.
        let credentials = try body.credentialsRequest.map { request in
            try GooglePaymentCredentialsRequest(
                serverSessionID: request.serverSessionId, stableHardwareID: request.stableHardwareId,
                walletID: request.walletId, tokenRequestorID: request.tokenRequestorId,
                googleOpaquePaymentCardRequested: request.googleOpaquePaymentCardRequested ?? true)
        }
        let data = try await services.provisioning.googlePay(
            card: card, userAddress: body.userAddress.map(UserAddress.init), credentials: credentials)
        guard let network = Components.Schemas.WalletPushData.NetworkPayload(rawValue: data.network),
            let provider = Components.Schemas.WalletPushData.TokenServiceProviderPayload(rawValue: data.tokenServiceProvider)
        else {
            // The builder's TapAndPay names and the document's enums have drifted apart.
            throw ProvisioError(.internalError, "The server could not complete the request.")
        }
        return .init(
            opaquePaymentCard: data.opaquePaymentCard, googleOpaquePaymentCard: data.googleOpaquePaymentCard,
            displayName: data.displayName, lastDigits: data.lastDigits, network: network, tokenServiceProvider: provider,
            userAddress: .init(data.userAddress))
    }

    private func samsungPay(_ card: CardRecord, _ body: Components.Schemas.SamsungPayRequest) async throws
        -> Components.Schemas.SamsungPayPushData
    {
        let info = try SamsungPayWalletIDs(deviceID: body.deviceId, walletUserID: body.walletUserId)
        let data = try await services.provisioning.samsungPay(card: card, walletInfo: info)
        guard let cardType = Components.Schemas.SamsungPayPushData.CardTypePayload(rawValue: data.cardType.rawValue),
            let provider = Components.Schemas.SamsungPayPushData.TokenizationProviderPayload(
                rawValue: data.tokenizationProvider)
        else {
            // The service's names and the document's enums have drifted apart.
            throw ProvisioError(.internalError, "The server could not complete the request.")
        }
        return .init(
            cardType: cardType, tokenizationProvider: provider, provisionPayload: data.provisionPayload,
            displayName: data.displayName, lastDigits: data.lastDigits)
    }

    // MARK: Mobile access

    /// The card if the app's credential may provision it into `wallet`: a mobile session any
    /// card of its customer, a provision token its one card and wallet, spending the token.
    private func mobileCard(_ id: String, wallet: Wallet) async throws -> CardRecord {
        switch try RequestScope.require().requirePrincipal() {
        case .mobileSession(let session):
            let card = try await services.cards.card(id: id, tenantID: session.tenantID)
            guard card.customerRef == session.customerRef else {
                throw ProvisioError(.cardNotFound, "No card with this id.")
            }
            return card
        case .provisionToken(let token, let hash):
            try Self.requireUnspent(token)
            guard token.cardID == id, token.wallet == wallet else {
                throw ProvisioError(.tokenScopeMismatch, "The provision token is for another card or wallet.")
            }
            try await services.access.consume(provisionTokenHash: hash)
            return try await services.cards.card(id: id, tenantID: token.tenantID)
        case .apiKey, .network:
            throw ProvisioError(.wrongCredentialKind, "Mobile endpoints take a mobile session or provision token.")
        }
    }

    /// Spent tokens are let through authentication only so that an `Idempotency-Key` retry can
    /// replay the first answer; anything that reaches an operation with one is refused here.
    static func requireUnspent(_ token: ProvisionTokenRecord) throws {
        guard token.usedAt == nil else {
            throw ProvisioError(.tokenAlreadyUsed, "The provision token was already used; request a new one.")
        }
    }
}

extension UserAddress {
    init(_ address: Components.Schemas.UserAddress) {
        self.init(
            name: address.name, address1: address.address1, address2: address.address2, locality: address.locality,
            administrativeArea: address.administrativeArea, countryCode: address.countryCode,
            postalCode: address.postalCode, phoneNumber: address.phoneNumber)
    }
}

extension Components.Schemas.UserAddress {
    init(_ address: UserAddress) {
        self.init(
            name: address.name, address1: address.address1, address2: address.address2, locality: address.locality,
            administrativeArea: address.administrativeArea, countryCode: address.countryCode,
            postalCode: address.postalCode, phoneNumber: address.phoneNumber)
    }
}
