import Foundation

// MARK: - Not part of Apple's API
//
// Everything in this file is the stand-in's own plumbing: PassKit on a device talks to Wallet,
// the secure element and Apple's servers; here `PKPassLibrary` and `PKAddPaymentPassViewController`
// talk to a `PassKitStandInDevice` instead. Tests install one (the sandbox wallet behind an
// adapter) with `PassKitStandInEnvironment.$device.withValue(_:operation:)`.

/// The device behind the stand-in (not part of Apple's API): its Wallet, secure element and the
/// path to Apple's provisioning service. Reads are synchronous, as PassKit's are.
public protocol PassKitStandInDevice: AnyObject, Sendable {
    /// Whether this app may add payment passes (the entitlement, and a device that supports it).
    var canAddPaymentPasses: Bool { get }
    /// Whether the pass library is available at all.
    var isPassLibraryAvailable: Bool { get }
    /// How long PassKit waits for the request handler before giving up (Apple: 20 seconds).
    var requestTimeout: Duration { get }
    /// The secure-element passes on the iPhone (`remote == false`) or the paired Watch, all of
    /// them: `PKPassLibrary` keeps those the calling app may see.
    func secureElementPasses(remote: Bool) -> [PassKitStandInPass]
    /// Whether the card with this primary account identifier can still be added somewhere.
    func canAddSecureElementPass(primaryAccountIdentifier: String) -> Bool
    /// Activates a pass that requires activation; returns it in its new state.
    func activate(serialNumber: String, activationData: Data) async throws -> PassKitStandInPass
    /// The cardholder taps through PassKit's sheet: nil when they cancel, else the session
    /// (certificates, nonce, nonce signature) for the device they chose.
    func beginAdd(_ request: PassKitStandInAddRequest) async throws -> PassKitStandInAddSession?
    /// PassKit hands the issuer's answer to Apple; returns the pass Wallet added.
    func finishAdd(_ session: PassKitStandInAddSession, response: PassKitStandInAddResponse) async throws
        -> PassKitStandInPass
    /// Called every time the app calls the request completion handler (PassKit expects one call).
    func requestHandlerCalled(for session: PassKitStandInAddSession)
    /// Wallet begins an add the cardholder chose among the issuer extension's entries: the
    /// session (certificates for the request's scheme, nonce, nonce signature) on the iPhone
    /// (`remote == false`) or the paired Watch. No sheet: Wallet itself offered the entry.
    func beginExtensionAdd(_ request: PassKitStandInAddRequest, remote: Bool) async throws -> PassKitStandInAddSession
}

extension PassKitStandInDevice {
    public func requestHandlerCalled(for session: PassKitStandInAddSession) {}

    /// A device that does not play Wallet's extension flow.
    public func beginExtensionAdd(_ request: PassKitStandInAddRequest, remote: Bool) async throws
        -> PassKitStandInAddSession
    {
        throw NSError(domain: PKPassKitErrorDomain, code: PKAddPaymentPassError.unsupported.rawValue)
    }
}

/// Which device the stand-in talks to (not part of Apple's API). A task local, so parallel tests
/// each see their own device; objects capture it when they are created.
public enum PassKitStandInEnvironment {
    @TaskLocal public static var device: (any PassKitStandInDevice)?

    /// The installed device, or one without Wallet (what an app without the entitlement sees).
    static var current: any PassKitStandInDevice { device ?? UnavailablePassKitDevice() }
}

/// The activation states, as the device reports them (not part of Apple's API).
public enum PassKitStandInActivationState: String, Sendable, Hashable, CaseIterable {
    case activated, requiresActivation, activating, suspended, deactivated
}

/// One secure-element pass as the device holds it (not part of Apple's API).
public struct PassKitStandInPass: Sendable, Hashable {
    public var serialNumber: String
    public var passTypeIdentifier: String
    public var primaryAccountIdentifier: String
    public var primaryAccountNumberSuffix: String
    public var deviceAccountIdentifier: String
    public var deviceAccountNumberSuffix: String
    public var activationState: PassKitStandInActivationState
    public var isRemote: Bool
    public var deviceName: String
    /// The apps that see the pass (`TEAMID.bundle.id`), from its card product; nil for a card
    /// without a product, whose pass every app sees (`isVisible(toApplication:)`).
    public var associatedApplicationIdentifiers: [String]?

    public init(
        serialNumber: String, passTypeIdentifier: String = "paymentpass.com.apple", primaryAccountIdentifier: String,
        primaryAccountNumberSuffix: String, deviceAccountIdentifier: String, deviceAccountNumberSuffix: String = "",
        activationState: PassKitStandInActivationState, isRemote: Bool, deviceName: String,
        associatedApplicationIdentifiers: [String]? = nil
    ) {
        self.associatedApplicationIdentifiers = associatedApplicationIdentifiers
        self.serialNumber = serialNumber
        self.passTypeIdentifier = passTypeIdentifier
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.primaryAccountNumberSuffix = primaryAccountNumberSuffix
        self.deviceAccountIdentifier = deviceAccountIdentifier
        self.deviceAccountNumberSuffix = deviceAccountNumberSuffix
        self.activationState = activationState
        self.isRemote = isRemote
        self.deviceName = deviceName
    }
}

/// What the app's request configuration tells PassKit (not part of Apple's API).
public struct PassKitStandInAddRequest: Sendable, Hashable {
    public var encryptionScheme: String
    public var cardholderName: String?
    public var primaryAccountSuffix: String?
    public var localizedDescription: String?
    public var primaryAccountIdentifier: String?
    public var paymentNetwork: String?
    public var requiresFelicaSecureElement: Bool
}

/// One add attempt: what PassKit hands the request delegate (not part of Apple's API).
public struct PassKitStandInAddSession: Sendable, Hashable {
    public var id: String
    /// DER, leaf first.
    public var certificates: [Data]
    public var nonce: Data
    public var nonceSignature: Data
    /// True when the cardholder chose the paired Watch.
    public var isRemote: Bool

    public init(id: String, certificates: [Data], nonce: Data, nonceSignature: Data, isRemote: Bool) {
        self.id = id
        self.certificates = certificates
        self.nonce = nonce
        self.nonceSignature = nonceSignature
        self.isRemote = isRemote
    }
}

/// The app's `PKAddPaymentPassRequest`, as PassKit forwards it (not part of Apple's API).
public struct PassKitStandInAddResponse: Sendable, Hashable {
    public var encryptedPassData: Data?
    public var activationData: Data?
    public var ephemeralPublicKey: Data?
    public var wrappedKey: Data?

    /// Whether the app gave anything to send (an empty request means it could not).
    public var isEmpty: Bool { encryptedPassData == nil || encryptedPassData?.isEmpty == true }
}

/// A device without Wallet: nothing can be added, no passes (not part of Apple's API).
final class UnavailablePassKitDevice: PassKitStandInDevice {
    var canAddPaymentPasses: Bool { false }
    var isPassLibraryAvailable: Bool { false }
    var requestTimeout: Duration { .seconds(20) }
    func secureElementPasses(remote: Bool) -> [PassKitStandInPass] { [] }
    func canAddSecureElementPass(primaryAccountIdentifier: String) -> Bool { false }
    func activate(serialNumber: String, activationData: Data) async throws -> PassKitStandInPass {
        // PassKit's PKPassKitError.Code.notEntitledError (PKError.h).
        throw NSError(domain: PKPassKitErrorDomain, code: 4)
    }
    func beginAdd(_ request: PassKitStandInAddRequest) async throws -> PassKitStandInAddSession? {
        throw NSError(domain: PKPassKitErrorDomain, code: PKAddPaymentPassError.unsupported.rawValue)
    }
    func finishAdd(_ session: PassKitStandInAddSession, response: PassKitStandInAddResponse) async throws
        -> PassKitStandInPass
    {
        throw NSError(domain: PKPassKitErrorDomain, code: PKAddPaymentPassError.unsupported.rawValue)
    }
}
