import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxConnectorAPI

// The connector document's values from the sandbox's own and back. Each enum pair converts by
// an exhaustive switch, so a case added on either side breaks the build here.

extension Components.Schemas.Token {
    /// A network token as the connector's answer shows it: the last four digits of the token
    /// PAN and nothing of the funding card's number (the same JSON as the sandbox's own API).
    init(_ token: NetworkToken) {
        self.init(
            networkTokenRef: token.networkTokenRef, issuerTokenId: token.issuerTokenID, state: .init(token.state),
            decision: .init(token.decision), reasons: token.reasons, activationMethods: token.activationMethods,
            tokenLast4: token.tokenPrimaryAccountNumber.last4, device: .init(token.device.kind),
            deviceAccountIdentifier: token.deviceAccountIdentifier, primaryAccountIdentifier: token.primaryAccountIdentifier,
            passSerialNumber: token.passSerialNumber, createdAt: token.createdAt)
    }
}

extension Components.Schemas.NetworkTokenState {
    init(_ state: ProvisioSandbox.NetworkTokenState) {
        switch state {
        case .pendingActivation: self = .pendingActivation
        case .active: self = .active
        case .suspended: self = .suspended
        case .deleted: self = .deleted
        case .declined: self = .declined
        }
    }
}

extension Components.Schemas.DecisionOutcome {
    init(_ outcome: ProvisioCore.DecisionOutcome) {
        switch outcome {
        case .approve: self = .approve
        case .requireVerification: self = .requireVerification
        case .decline: self = .decline
        }
    }
}

extension Components.Schemas.DeviceKind {
    /// The connector names the device's form only: an Android phone is a phone.
    init(_ kind: SandboxDeviceKind) {
        switch kind {
        case .phone, .androidPhone: self = .phone
        case .watch, .galaxyWatch: self = .watch
        }
    }
}

extension IssuerLifecycleAction {
    init(_ action: Components.Schemas.LifecycleRequest.ActionPayload) {
        switch action {
        case .suspend: self = .suspend
        case .resume: self = .resume
        case .delete: self = .delete
        }
    }
}
