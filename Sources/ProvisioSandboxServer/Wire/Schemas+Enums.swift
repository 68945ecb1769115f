import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxAPI

// The sandbox's enums and the document's name every value with the same word. Each pair is
// converted by an exhaustive switch, so a case added on either side breaks the build here
// (`WireEnumWordsTests` checks that the words match).

extension Components.Schemas.DeviceKind {
    package init(_ kind: SandboxDeviceKind) {
        switch kind {
        case .phone: self = .phone
        case .watch: self = .watch
        case .androidPhone: self = .androidPhone
        case .galaxyWatch: self = .galaxyWatch
        }
    }
}

extension SandboxDeviceKind {
    package init(_ kind: Components.Schemas.DeviceKind) {
        switch kind {
        case .phone: self = .phone
        case .watch: self = .watch
        case .androidPhone: self = .androidPhone
        case .galaxyWatch: self = .galaxyWatch
        }
    }
}

extension Components.Schemas.EncryptionScheme {
    package init(_ scheme: ProvisioCore.EncryptionScheme) {
        switch scheme {
        case .eccV2: self = .eccV2
        case .rsaV2: self = .rsaV2
        }
    }
}

extension ProvisioCore.EncryptionScheme {
    package init(_ scheme: Components.Schemas.EncryptionScheme) {
        switch scheme {
        case .eccV2: self = .eccV2
        case .rsaV2: self = .rsaV2
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

extension Components.Schemas.NetworkTokenState {
    package init(_ state: ProvisioSandbox.NetworkTokenState) {
        switch state {
        case .pendingActivation: self = .pendingActivation
        case .active: self = .active
        case .suspended: self = .suspended
        case .deleted: self = .deleted
        case .declined: self = .declined
        }
    }
}

extension Components.Schemas.PassActivationState {
    package init(_ state: SandboxPassActivationState) {
        switch state {
        case .activated: self = .activated
        case .requiresActivation: self = .requiresActivation
        case .activating: self = .activating
        case .suspended: self = .suspended
        case .deactivated: self = .deactivated
        }
    }
}
