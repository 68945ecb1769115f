import ProvisioCore
import ProvisioSandboxAPI

extension SandboxWire {
    /// A pass in Wallet, with what PassKit's `PKSecureElementPass` shows the issuer app: the
    /// card's last four digits, never its number.
    public struct Pass: Sendable, Hashable {
        public var serialNumber: String
        public var passTypeIdentifier: String
        public var primaryAccountIdentifier: String
        public var primaryAccountNumberSuffix: String
        public var deviceAccountIdentifier: String
        public var activationState: SandboxPassActivationState
        public var device: SandboxDeviceKind
        public var details: CardDetails

        public init(_ pass: SandboxPass) {
            self.serialNumber = pass.serialNumber
            self.passTypeIdentifier = pass.passTypeIdentifier
            self.primaryAccountIdentifier = pass.primaryAccountIdentifier
            self.primaryAccountNumberSuffix = pass.primaryAccountNumberSuffix
            self.deviceAccountIdentifier = pass.deviceAccountIdentifier
            self.activationState = pass.activationState
            self.device = pass.deviceKind
            self.details = pass.details
        }

        package init(_ pass: Components.Schemas.Pass) throws {
            self.serialNumber = pass.serialNumber
            self.passTypeIdentifier = pass.passTypeIdentifier
            self.primaryAccountIdentifier = pass.primaryAccountIdentifier
            self.primaryAccountNumberSuffix = pass.primaryAccountNumberSuffix
            self.deviceAccountIdentifier = pass.deviceAccountIdentifier
            self.activationState = try .init(spelling: pass.activationState)
            self.device = try .init(spelling: pass.device)
            self.details = CardDetails(
                expiry: try pass.expiry.map(CardExpiry.init(slashed:)), cardholderName: pass.cardholderName,
                cardArtURL: pass.cardArtUrl)
        }
    }
}

extension Components.Schemas.Pass {
    package init(_ pass: SandboxWire.Pass) throws {
        self.init(
            serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
            primaryAccountIdentifier: pass.primaryAccountIdentifier,
            primaryAccountNumberSuffix: pass.primaryAccountNumberSuffix,
            deviceAccountIdentifier: pass.deviceAccountIdentifier, activationState: try .init(spelling: pass.activationState),
            device: try .init(spelling: pass.device), expiry: pass.details.expiry?.slashed,
            cardholderName: pass.details.cardholderName, cardArtUrl: pass.details.cardArtURL)
    }
}
