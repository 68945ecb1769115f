import ProvisioCore
import ProvisioNetworkAPI

// Provisio's network API and the sandbox network (or Core) name every value with the same word.
// Each pair converts by an exhaustive switch, so a case added on either side breaks the build
// here (`WireEnumWordsTests` checks that the words match).

extension Components.Schemas.Wallet {
    package init(_ wallet: ProvisioCore.Wallet) {
        switch wallet {
        case .applePay: self = .applePay
        case .googlePay: self = .googlePay
        case .samsungPay: self = .samsungPay
        }
    }
}

extension Components.Schemas.DeviceType {
    package init(_ type: ProvisioCore.DeviceType) {
        switch type {
        case .phone: self = .phone
        case .watch: self = .watch
        case .tablet: self = .tablet
        }
    }
}

extension Components.Schemas.DecisionOutcome {
    package init(_ outcome: ProvisioCore.DecisionOutcome) {
        switch outcome {
        case .approve: self = .approve
        case .requireVerification: self = .requireVerification
        case .decline: self = .decline
        }
    }
}

extension ProvisioCore.DecisionOutcome {
    package init(_ outcome: Components.Schemas.DecisionOutcome) {
        switch outcome {
        case .approve: self = .approve
        case .requireVerification: self = .requireVerification
        case .decline: self = .decline
        }
    }
}

extension Components.Schemas.NetworkTokenEventRequest.EventPayload {
    package init(_ event: NetworkTokenEvent) {
        switch event {
        case .activated: self = .activated
        case .otpVerified: self = .otpVerified
        case .suspended: self = .suspended
        case .resumed: self = .resumed
        case .deleted: self = .deleted
        case .removedFromWallet: self = .removedFromWallet
        case .deviceLost: self = .deviceLost
        case .tokenExpired: self = .tokenExpired
        }
    }
}
