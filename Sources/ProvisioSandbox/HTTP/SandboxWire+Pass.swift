extension SandboxWire {
    /// A pass in Wallet, with what PassKit's `PKSecureElementPass` shows the issuer app: the
    /// card's last four digits, never its number.
    public struct Pass: Codable, Sendable, Hashable {
        public var serialNumber: String
        public var passTypeIdentifier: String
        public var primaryAccountIdentifier: String
        public var primaryAccountNumberSuffix: String
        public var deviceAccountIdentifier: String
        public var activationState: SandboxPassActivationState
        public var device: SandboxDeviceKind

        public init(_ pass: SandboxPass) {
            self.serialNumber = pass.serialNumber
            self.passTypeIdentifier = pass.passTypeIdentifier
            self.primaryAccountIdentifier = pass.primaryAccountIdentifier
            self.primaryAccountNumberSuffix = pass.primaryAccountNumberSuffix
            self.deviceAccountIdentifier = pass.deviceAccountIdentifier
            self.activationState = pass.activationState
            self.device = pass.deviceKind
        }

        enum CodingKeys: String, CodingKey {
            case serialNumber = "serial_number"
            case passTypeIdentifier = "pass_type_identifier"
            case primaryAccountIdentifier = "primary_account_identifier"
            case primaryAccountNumberSuffix = "primary_account_number_suffix"
            case deviceAccountIdentifier = "device_account_identifier"
            case activationState = "activation_state"
            case device
        }
    }

    public struct PassList: Codable, Sendable, Hashable {
        public var passes: [Pass]

        public init(_ passes: [SandboxPass]) {
            self.passes = passes.map(Pass.init)
        }
    }
}
