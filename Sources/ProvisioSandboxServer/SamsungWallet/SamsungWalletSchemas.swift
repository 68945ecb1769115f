import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxSamsungWalletAPI

// Samsung Wallet's values and the document's name each with the same word (Samsung's constant,
// or its string value). Each pair converts by an exhaustive switch, so a case added on either
// side breaks the build here (`SamsungWalletHTTPTests` checks that the words match).

extension SamsungPartnerInfo {
    /// `ERROR_PARTNER_INFO_INVALID` (-99) as the SDK refuses the app's `PartnerInfo`.
    package init(_ info: Components.Schemas.PartnerInfo) throws {
        try self.init(serviceID: info.serviceId, serviceType: .init(info.serviceType), issuerName: info.issuerName)
    }
}

extension SamsungServiceType {
    package init(_ type: Components.Schemas.ServiceType) {
        switch type {
        case .app2app: self = .app2app
        case .inappPayment: self = .inAppPayment
        }
    }
}

extension Components.Schemas.ServiceType {
    package init(_ type: SamsungServiceType) {
        switch type {
        case .app2app: self = .app2app
        case .inAppPayment: self = .inappPayment
        }
    }
}

extension SamsungCardType {
    package init(_ type: Components.Schemas.CardType) {
        switch type {
        case .credit: self = .credit
        case .debit: self = .debit
        case .creditDebit: self = .creditDebit
        }
    }
}

extension Components.Schemas.CardType {
    package init(_ type: SamsungCardType) {
        switch type {
        case .credit: self = .credit
        case .debit: self = .debit
        case .creditDebit: self = .creditDebit
        }
    }
}

extension SamsungTokenizationProvider {
    package init(_ provider: Components.Schemas.TokenizationProvider) {
        switch provider {
        case .vi: self = .visa
        case .mc: self = .mastercard
        case .ax: self = .amex
        case .ds: self = .discover
        case .pl: self = .plcc
        case .gi: self = .gift
        case .lo: self = .loyalty
        case .gt: self = .gemalto
        case .mi: self = .mir
        case .np: self = .napas
        case .pb: self = .pagobancomat
        case .pp: self = .paypal
        }
    }
}

extension Components.Schemas.TokenizationProvider {
    package init(_ provider: SamsungTokenizationProvider) {
        switch provider {
        case .visa: self = .vi
        case .mastercard: self = .mc
        case .amex: self = .ax
        case .discover: self = .ds
        case .plcc: self = .pl
        case .gift: self = .gi
        case .loyalty: self = .lo
        case .gemalto: self = .gt
        case .mir: self = .mi
        case .napas: self = .np
        case .pagobancomat: self = .pb
        case .paypal: self = .pp
        }
    }
}

extension Components.Schemas.CardState {
    package init(_ state: SamsungCardState) {
        switch state {
        case .active: self = .active
        case .pendingProvision: self = .pendingProvision
        case .pendingActivation: self = .pendingActivation
        case .suspended: self = .suspended
        case .expired: self = .expired
        case .disposed: self = .disposed
        }
    }
}

extension Components.Schemas.DeviceType {
    package init(_ type: SamsungDeviceType) {
        switch type {
        case .phone: self = .phone
        case .gear: self = .gear
        }
    }
}

extension Components.Schemas.VerificationMethod {
    package init(_ method: SamsungVerificationMethod) {
        switch method {
        case .oneTimeCode: self = .otpSms
        case .appToApp: self = .appToApp
        case .customerService: self = .customerService
        }
    }
}

extension SamsungPayStatus {
    package init(_ status: Components.Schemas.PayStatus) {
        switch status {
        case .spayNotSupported: self = .notSupported
        case .spayNotReady: self = .notReady
        case .spayReady: self = .ready
        case .spayNotAllowedTemporally: self = .notAllowedTemporally
        }
    }
}

extension Components.Schemas.PayStatus {
    package init(_ status: SamsungPayStatus) {
        switch status {
        case .notSupported: self = .spayNotSupported
        case .notReady: self = .spayNotReady
        case .ready: self = .spayReady
        case .notAllowedTemporally: self = .spayNotAllowedTemporally
        }
    }
}

extension SamsungErrorCode {
    package init(_ reason: Components.Schemas.ErrorReason) {
        switch reason {
        case .errorNone: self = .none
        case .errorSpayInternal: self = .spayInternal
        case .errorInvalidInput: self = .invalidInput
        case .errorNotSupported: self = .notSupported
        case .errorNotFound: self = .notFound
        case .errorAlreadyDone: self = .alreadyDone
        case .errorNotAllowed: self = .notAllowed
        case .errorUserCanceled: self = .userCanceled
        case .errorPartnerServiceType: self = .partnerServiceType
        case .errorInvalidParameter: self = .invalidParameter
        case .errorPartnerInfoInvalid: self = .partnerInfoInvalid
        case .errorRegistrationFail: self = .registrationFail
        case .errorDeviceNotSamsung: self = .deviceNotSamsung
        case .errorSpayPkgNotFound: self = .spayPackageNotFound
        case .errorSpaySdkServiceNotAvailable: self = .spaySDKServiceNotAvailable
        case .errorDeviceIntegrityCheckFail: self = .deviceIntegrityCheckFail
        case .errorSpaySetupNotCompleted: self = .spaySetupNotCompleted
        case .errorSpayAppNeedToUpdate: self = .spayAppNeedToUpdate
        }
    }
}

extension Components.Schemas.ErrorReason {
    package init(_ code: SamsungErrorCode) {
        switch code {
        case .none: self = .errorNone
        case .spayInternal: self = .errorSpayInternal
        case .invalidInput: self = .errorInvalidInput
        case .notSupported: self = .errorNotSupported
        case .notFound: self = .errorNotFound
        case .alreadyDone: self = .errorAlreadyDone
        case .notAllowed: self = .errorNotAllowed
        case .userCanceled: self = .errorUserCanceled
        case .partnerServiceType: self = .errorPartnerServiceType
        case .invalidParameter: self = .errorInvalidParameter
        case .partnerInfoInvalid: self = .errorPartnerInfoInvalid
        case .registrationFail: self = .errorRegistrationFail
        case .deviceNotSamsung: self = .errorDeviceNotSamsung
        case .spayPackageNotFound: self = .errorSpayPkgNotFound
        case .spaySDKServiceNotAvailable: self = .errorSpaySdkServiceNotAvailable
        case .deviceIntegrityCheckFail: self = .errorDeviceIntegrityCheckFail
        case .spaySetupNotCompleted: self = .errorSpaySetupNotCompleted
        case .spayAppNeedToUpdate: self = .errorSpayAppNeedToUpdate
        }
    }
}

// MARK: - Objects

extension Components.Schemas.SamsungPayStatus {
    /// The status and its reason, each with the SDK's number.
    package init(_ result: SamsungPayStatusResult) {
        self.init(
            status: .init(result.status), statusCode: result.status.rawValue, errorReason: result.errorReason.map { .init($0) },
            errorReasonCode: result.errorReason?.rawValue)
    }
}

extension Components.Schemas.WalletInfo {
    package init(_ info: SamsungWalletInfo) {
        self.init(deviceId: info.deviceID, walletUserId: info.walletUserID, walletDmId: info.walletDMID)
    }
}

extension Components.Schemas.Card {
    /// A card as the SDK's `Card` shows it: the last four digits of the card and the token only.
    package init(_ card: SamsungCard) {
        self.init(
            cardId: card.cardID, cardStatus: .init(card.cardStatus), last4Fpan: card.last4FPAN, last4Dpan: card.last4DPAN,
            cardType: .init(card.cardType), issuerName: card.issuerName, deviceType: .init(card.deviceType),
            tokenizationProvider: .init(card.tokenizationProvider))
    }
}

extension Components.Schemas.AppToAppRequest {
    package init(_ request: SamsungAppToAppRequest) {
        self.init(
            cardId: request.cardID, action: request.action, extraText: request.extraText,
            tokenizationProvider: .init(request.tokenizationProvider))
    }
}

extension Components.Schemas.OTPChallenge {
    /// The sandbox plays the cardholder's phone, so it shows the code; `channels` are where the
    /// issuer said it sent it (masked), empty when codes are not relayed through the issuer.
    package init(_ otp: SandboxOTP, channels: [IssuerConnection.OTPChannel]) {
        self.init(
            code: otp.code, expiresAt: otp.expiresAt, channels: channels.map { .init(_type: $0.type, masked: $0.masked) })
    }
}
