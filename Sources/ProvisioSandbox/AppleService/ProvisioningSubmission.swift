import Foundation
import ProvisioCore

/// What Apple's provisioning service forwards to the card network once it has opened the
/// issuer's payload and matched it to the device's session.
public struct ProvisioningSubmission: Sendable, Hashable, CustomStringConvertible {
    public let sessionID: String
    public let scheme: EncryptionScheme
    public let primaryAccountNumber: PrimaryAccountNumber
    public let expiry: CardExpiry
    public let cardholderName: CardholderName
    /// The issuer's `activationData` (base64, a TAV) as the issuer sent it; nil when it sent none.
    public let activationData: String?
    public let device: SandboxDevice
    /// The card the app named when it began the session, if it named one.
    public let primaryAccountIdentifier: String?
    public let submittedAt: Date

    public init(
        sessionID: String, scheme: EncryptionScheme, primaryAccountNumber: PrimaryAccountNumber, expiry: CardExpiry,
        cardholderName: CardholderName, activationData: String?, device: SandboxDevice, primaryAccountIdentifier: String?,
        submittedAt: Date
    ) {
        self.sessionID = sessionID
        self.scheme = scheme
        self.primaryAccountNumber = primaryAccountNumber
        self.expiry = expiry
        self.cardholderName = cardholderName
        self.activationData = activationData
        self.device = device
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.submittedAt = submittedAt
    }

    /// Spelled out so the PAN shows only masked, whatever prints the value.
    public var description: String {
        "ProvisioningSubmission(session: \(sessionID), scheme: \(scheme.rawValue), card: \(primaryAccountNumber.masked), "
            + "expiry: \(expiry.slashed), device: \(device), activationData: \(activationData == nil ? "none" : "present"))"
    }
}
