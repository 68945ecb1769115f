import ProvisioCore

/// The passes of one device, in the order they were added. A value owned by `SandboxWallet`,
/// which keeps serial numbers and device account identifiers unique across both devices.
struct SandboxPassLibrary: Sendable {
    let deviceKind: SandboxDeviceKind
    private(set) var passes: [SandboxPass] = []

    init(deviceKind: SandboxDeviceKind) {
        self.deviceKind = deviceKind
    }

    /// The passes the app with this application identifier sees (`SandboxPass.isVisible`).
    func passes(visibleToApplication applicationIdentifier: String) -> [SandboxPass] {
        passes.filter { $0.isVisible(toApplication: applicationIdentifier) }
    }

    func pass(primaryAccountIdentifier: String) -> SandboxPass? {
        passes.first { $0.primaryAccountIdentifier == primaryAccountIdentifier }
    }

    func pass(serialNumber: String) -> SandboxPass? {
        passes.first { $0.serialNumber == serialNumber }
    }

    func pass(deviceAccountIdentifier: String) -> SandboxPass? {
        passes.first { $0.deviceAccountIdentifier == deviceAccountIdentifier }
    }

    /// Wallet holds at most one pass per card on a device.
    mutating func insert(_ pass: SandboxPass) throws {
        precondition(pass.deviceKind == deviceKind, "A pass belongs to the library of its own device.")
        if self.pass(primaryAccountIdentifier: pass.primaryAccountIdentifier) != nil {
            throw ProvisioError(.sandboxPassExists, "This card is already in Wallet on the \(deviceKind).")
        }
        passes.append(pass)
    }

    /// Returns the updated pass, or nil when no pass has this serial number.
    mutating func setActivationState(_ state: SandboxPassActivationState, serialNumber: String) throws -> SandboxPass? {
        guard let index = passes.firstIndex(where: { $0.serialNumber == serialNumber }) else { return nil }
        let current = passes[index].activationState
        if current.isTerminal && state != current {
            throw ProvisioError(
                .sandboxPassStateInvalid, "A deactivated pass cannot become \(state.rawValue); add the card again.")
        }
        passes[index].activationState = state
        return passes[index]
    }

    /// Returns the updated pass, or nil when no pass has this serial number.
    mutating func setDetails(_ details: CardDetails, suffix: String? = nil, serialNumber: String) -> SandboxPass? {
        guard let index = passes.firstIndex(where: { $0.serialNumber == serialNumber }) else { return nil }
        passes[index].details = details
        if let suffix { passes[index].primaryAccountNumberSuffix = suffix }
        return passes[index]
    }

    /// Gives the pass its product's new profile and shows the product's name and art on it.
    /// Returns the updated pass, or nil when no pass has this serial number.
    mutating func setProfile(_ profile: SandboxCardProfile, serialNumber: String) -> SandboxPass? {
        guard let index = passes.firstIndex(where: { $0.serialNumber == serialNumber }) else { return nil }
        passes[index].profile = profile
        passes[index].details = passes[index].details.applying(profile.shownDetails)
        return passes[index]
    }

    /// Returns the removed pass, or nil when no pass has this serial number.
    mutating func remove(serialNumber: String) -> SandboxPass? {
        guard let index = passes.firstIndex(where: { $0.serialNumber == serialNumber }) else { return nil }
        return passes.remove(at: index)
    }
}
