import ProvisioMobileAPI

extension WalletToken {
    /// A token as `GET /v1/mobile/tokens` and the token calls answer it.
    init(_ wire: Components.Schemas.MobileToken) {
        self.init(
            id: wire.id, cardID: wire.cardId, cardLast4: wire.cardLast4, tokenLast4: wire.tokenLast4,
            deviceAccountIdentifier: wire.deviceAccountIdentifier, wallet: Wallet(wire.wallet),
            deviceType: wire.deviceType.map(DeviceType.init), state: State(wire.state),
            createdAt: wire.createdAt, updatedAt: wire.updatedAt)
    }
}

// Exhaustive switches, not raw values: a case added to the document stops the build here.
extension WalletToken.Wallet {
    init(_ wire: Components.Schemas.Wallet) {
        switch wire {
        case .applePay: self = .applePay
        case .googlePay: self = .googlePay
        case .samsungPay: self = .samsungPay
        }
    }
}

extension WalletToken.DeviceType {
    init(_ wire: Components.Schemas.DeviceType) {
        switch wire {
        case .phone: self = .phone
        case .watch: self = .watch
        case .tablet: self = .tablet
        }
    }
}

extension WalletToken.State {
    init(_ wire: Components.Schemas.TokenState) {
        switch wire {
        case .requested: self = .requested
        case .pendingVerification: self = .pendingVerification
        case .active: self = .active
        case .suspended: self = .suspended
        case .deleted: self = .deleted
        case .declined: self = .declined
        }
    }
}

extension WalletTokenAction {
    var wire: Components.Schemas.MobileTokenTransitionRequest.ActionPayload {
        switch self {
        case .suspend: .suspend
        case .resume: .resume
        case .delete: .delete
        }
    }
}
