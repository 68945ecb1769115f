import ProvisioAPI
import ProvisioCore

// The document's enums and Core's, both ways, each an exhaustive switch: a case added on
// either side does not compile until it is mapped. Shared by every area's handlers.

extension Components.Schemas.PaymentNetwork {
    init(_ network: PaymentNetwork) {
        switch network {
        case .visa: self = .visa
        case .mastercard: self = .mastercard
        case .amex: self = .amex
        case .discover: self = .discover
        case .jcb: self = .jcb
        case .unionPay: self = .unionpay
        case .maestro: self = .maestro
        case .unknown: self = .unknown
        }
    }
}

extension Components.Schemas.Wallet {
    init(_ wallet: Wallet) {
        switch wallet {
        case .applePay: self = .applePay
        case .googlePay: self = .googlePay
        case .samsungPay: self = .samsungPay
        }
    }
}

extension Wallet {
    init(_ wallet: Components.Schemas.Wallet) {
        switch wallet {
        case .applePay: self = .applePay
        case .googlePay: self = .googlePay
        case .samsungPay: self = .samsungPay
        }
    }
}

extension Components.Schemas.DeviceType {
    init(_ device: DeviceType) {
        switch device {
        case .phone: self = .phone
        case .watch: self = .watch
        case .tablet: self = .tablet
        }
    }
}

extension DeviceType {
    init(_ device: Components.Schemas.DeviceType) {
        switch device {
        case .phone: self = .phone
        case .watch: self = .watch
        case .tablet: self = .tablet
        }
    }
}

extension Components.Schemas.EncryptionScheme {
    init(_ scheme: EncryptionScheme) {
        switch scheme {
        case .eccV2: self = .eccV2
        case .rsaV2: self = .rsaV2
        }
    }
}
