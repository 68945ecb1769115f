import ProvisioCore

/// Apple Wallet as the network's token wallet: the card is a pass on the iPhone or the Watch,
/// its handle the pass's serial number.
extension SandboxWallet: SandboxTokenWallet {
    public nonisolated var walletKind: Wallet { .applePay }

    public func install(_ card: SandboxWalletCard, state: SandboxPassActivationState, on device: SandboxDevice) throws
        -> String
    {
        try addPass(
            on: device.kind, primaryAccountIdentifier: card.primaryAccountIdentifier,
            primaryAccountNumberSuffix: card.fundingLast4, deviceAccountIdentifier: card.deviceAccountIdentifier,
            activationState: state, details: card.details, profile: card.profile
        ).serialNumber
    }

    public func setState(_ state: SandboxPassActivationState, handle: String, on device: SandboxDevice) throws {
        try updateActivationState(state, serialNumber: handle, on: device.kind)
    }

    public func remove(handle: String, on device: SandboxDevice) throws {
        try removePass(serialNumber: handle, on: device.kind)
    }

    public func showDetails(_ details: CardDetails, newLast4: String?, handle: String, on device: SandboxDevice) throws {
        let shown = pass(serialNumber: handle, on: device.kind)?.details ?? CardDetails()
        try updateDetails(shown.applying(details), primaryAccountNumberSuffix: newLast4, serialNumber: handle, on: device.kind)
    }

    public func showProfile(_ profile: SandboxCardProfile, handle: String, on device: SandboxDevice) throws {
        try updateProfile(profile, serialNumber: handle, on: device.kind)
    }
}
