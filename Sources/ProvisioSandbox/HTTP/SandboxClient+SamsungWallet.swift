import Foundation
import OpenAPIRuntime
import ProvisioCore
import ProvisioSandboxSamsungWalletAPI
import ProvisioWireClient

extension SandboxClient {
    /// Samsung Wallet's calls (`sandbox-samsung-wallet-openapi.yaml`), with this client's URL,
    /// key and connections.
    public var samsungWallet: SamsungWallet {
        SamsungWallet(
            baseURL: baseURL,
            client: serverURL.map {
                ProvisioSandboxSamsungWalletAPI.Client(serverURL: $0, transport: transport, middlewares: middlewares)
            },
            failures: failures)
    }

    /// The sandbox's Samsung Wallet over HTTP: the Samsung Pay SDK's calls as the issuer's app
    /// makes them on the phone or the watch (each with the app's `PartnerInfo`), what the
    /// cardholder does with a card, and the test switches. Refusals are thrown as the
    /// `ProvisioError` the service answered: an SDK failure as its `sandbox_samsung_…` code,
    /// whose message names Samsung's constant and number. No answer carries a card number.
    public struct SamsungWallet: Sendable {
        public typealias Device = Components.Schemas.Device
        public typealias PartnerInfo = Components.Schemas.PartnerInfo
        public typealias ServiceType = Components.Schemas.ServiceType
        public typealias PayStatus = Components.Schemas.PayStatus
        public typealias ErrorReason = Components.Schemas.ErrorReason
        /// `getSamsungPayStatus`'s answer, with the SDK's numbers.
        public typealias Status = Components.Schemas.SamsungPayStatus
        public typealias WalletInfo = Components.Schemas.WalletInfo
        public typealias CardType = Components.Schemas.CardType
        public typealias TokenizationProvider = Components.Schemas.TokenizationProvider
        public typealias Card = Components.Schemas.Card
        public typealias CardState = Components.Schemas.CardState
        public typealias DeviceType = Components.Schemas.DeviceType
        public typealias VerificationMethod = Components.Schemas.VerificationMethod
        public typealias OTPChallenge = Components.Schemas.OTPChallenge
        /// The intent "Open banking app" starts the issuer's app with.
        public typealias AppToAppRequest = Components.Schemas.AppToAppRequest
        /// The issuer's app's answer to it.
        public typealias StepUpResponse = Components.Schemas.StepUpResponse

        let baseURL: String
        let client: ProvisioSandboxSamsungWalletAPI.Client?
        let failures: WireClientFailures

        // MARK: - The SDK on a device

        /// `getSamsungPayStatus`. A `SPAY_READY` answer lets this service id read and add cards
        /// on `device` until the status changes.
        public func getSamsungPayStatus(on device: Device, partner: PartnerInfo) async throws -> Status {
            try await call("Samsung Pay's status") {
                try await $0.getSamsungPayStatus(path: .init(device: device), body: .json(.init(partnerInfo: partner)))
                    .ok.body.json
            }
        }

        /// `activateSamsungPay()`: the cardholder finishes Samsung Pay's setup (-356).
        public func activateSamsungPay(on device: Device, partner: PartnerInfo) async throws {
            try await call("Samsung Pay's activation") {
                _ = try await $0.activateSamsungPay(path: .init(device: device), body: .json(.init(partnerInfo: partner)))
                    .noContent
            }
        }

        /// `goToUpdatePage()`: the cardholder updates Samsung Pay on the phone (-357); the watch
        /// has no such call (`sandbox_samsung_not_supported`).
        public func goToUpdatePage(on device: Device = .phone, partner: PartnerInfo) async throws {
            try await call("Samsung Pay's update") {
                _ = try await $0.goToUpdatePage(path: .init(device: device), body: .json(.init(partnerInfo: partner)))
                    .noContent
            }
        }

        /// `getWalletInfo`: the device's id, the account's wallet user id, the wallet's DM id.
        public func getWalletInfo(on device: Device, partner: PartnerInfo) async throws -> WalletInfo {
            try await call("Samsung Wallet's info") {
                try await $0.getWalletInfo(path: .init(device: device), body: .json(.init(partnerInfo: partner))).ok.body.json
            }
        }

        /// `getAllCards`: the cards this service id added on `device`, oldest first.
        public func getAllCards(on device: Device, partner: PartnerInfo) async throws -> [Card] {
            try await call("Samsung Wallet's cards") {
                try await $0.getAllCards(path: .init(device: device), body: .json(.init(partnerInfo: partner)))
                    .ok.body.json.cards
            }
        }

        /// `addCard` with Provisio's Samsung Pay answer (`card_type`, `tokenization_provider`,
        /// `provision_payload`): the card, `ACTIVE` on green or `PENDING_ACTIVATION` on yellow.
        public func addCard(
            on device: Device, partner: PartnerInfo, cardType: CardType, tokenizationProvider: TokenizationProvider,
            provisionPayload: String
        ) async throws -> Card {
            try await call("the add to Samsung Wallet") {
                try await $0.addCard(
                    path: .init(device: device),
                    body: .json(
                        .init(
                            partnerInfo: partner, cardType: cardType, tokenizationProvider: tokenizationProvider,
                            provisionPayload: provisionPayload))
                ).created.body.json
            }
        }

        // MARK: - The cardholder

        /// The methods Samsung Wallet offers to verify a pending card (none for another).
        public func verificationMethods(cardID: String) async throws -> [VerificationMethod] {
            try await call("the card's verification methods") {
                try await $0.listVerificationMethods(path: .init(cardId: cardID)).ok.body.json.methods
            }
        }

        /// The cardholder asks for a one-time code; the sandbox, as their phone, shows it.
        public func requestOneTimeCode(cardID: String) async throws -> OTPChallenge {
            try await call("a one-time code") {
                try await $0.requestOneTimeCode(path: .init(cardId: cardID)).ok.body.json
            }
        }

        @discardableResult
        public func submitOneTimeCode(_ code: String, cardID: String) async throws -> Card {
            try await call("the one-time code") {
                try await $0.submitOneTimeCode(path: .init(cardId: cardID), body: .json(.init(code: code))).ok.body.json
            }
        }

        /// "Open banking app": the intent Samsung Wallet starts the issuer's app with.
        public func openBankingApp(cardID: String) async throws -> AppToAppRequest {
            try await call("the app-to-app request") {
                try await $0.openBankingApp(path: .init(cardId: cardID)).ok.body.json
            }
        }

        /// The issuer's app answers; `accepted` with Provisio's activation data activates the card.
        @discardableResult
        public func completeAppToApp(cardID: String, result: StepUpResponse, activationCode: String? = nil)
            async throws -> Card
        {
            try await call("the app-to-app result") {
                try await $0.completeAppToApp(
                    path: .init(cardId: cardID), body: .json(.init(result: result, activationCode: activationCode))
                ).ok.body.json
            }
        }

        /// The cardholder deletes the card in Samsung Wallet; it stays listed, `DISPOSED`.
        @discardableResult
        public func deleteCard(cardID: String) async throws -> Card {
            try await call("the card's deletion") { try await $0.deleteCard(path: .init(cardId: cardID)).ok.body.json }
        }

        // MARK: - Test switches

        /// What `getSamsungPayStatus` answers on `device` from now on (`reason` only when not ready).
        @discardableResult
        public func setSamsungPayStatus(_ status: PayStatus, reason: ErrorReason? = nil, on device: Device)
            async throws -> Status
        {
            try await call("Samsung Pay's status setting") {
                try await $0.setSamsungPayStatus(
                    path: .init(device: device), body: .json(.init(status: status, errorReason: reason))
                ).ok.body.json
            }
        }

        /// While true, the cardholder cancels every add (`ERROR_USER_CANCELED`).
        public func setCardholderCancels(_ cancels: Bool) async throws {
            try await call("the cardholder's cancelling") {
                _ = try await $0.setCardholderCancels(body: .json(.init(cancels: cancels))).ok
            }
        }

        private func call<Answer: Sendable>(
            _ what: String, _ body: (ProvisioSandboxSamsungWalletAPI.Client) async throws -> Answer
        ) async throws -> Answer {
            guard let client else {
                throw ProvisioError(.sandboxUnreachable, "The sandbox URL \(baseURL) is not a URL.")
            }
            return try await WireCall.perform(what, failures: failures) { try await body(client) }
        }
    }
}
