import Foundation
import ProvisioCore

/// The user's Apple Wallet in the sandbox: an iPhone and, usually, a paired Apple Watch, each
/// with its own secure element and pass library.
///
/// It plays PassKit's part of in-app provisioning: `beginAdd` produces what
/// `generateRequestWithCertificateChain` receives (the sandbox CA's chain, a fresh nonce and the
/// device's signature over it) and remembers the session, which `SandboxAppleProvisioningService`
/// later claims exactly once. An actor, so sessions and passes change atomically.
public actor SandboxWallet {
    public nonisolated let phone: SandboxDevice
    /// Nil when no Watch is paired.
    public nonisolated let watch: SandboxDevice?

    /// Whose chain PassKit hands to the app; Apple's service opens payloads with its leaf keys.
    public nonisolated let certificateAuthority: SandboxCertificateAuthority
    /// Stamps each session's start and deadline; Apple's service judges deadlines by it too.
    public nonisolated let clock: any TimeSource
    private let phoneSecureElement: SandboxSecureElement
    private let watchSecureElement: SandboxSecureElement?
    private var sessions = AddPaymentPassSessionLedger()
    private var libraries: [SandboxDeviceKind: SandboxPassLibrary]

    /// - Parameters:
    ///   - certificateAuthority: whose chain PassKit hands to the app (Apple's PKI, in the sandbox).
    ///   - clock: stamps each session's start and deadline.
    ///   - watchSecureElement: nil for a wallet without a paired Watch.
    public init(
        certificateAuthority: SandboxCertificateAuthority, clock: any TimeSource = SystemTimeSource(),
        phoneSecureElement: SandboxSecureElement = SandboxSecureElement(),
        watchSecureElement: SandboxSecureElement? = SandboxSecureElement()
    ) {
        self.certificateAuthority = certificateAuthority
        self.clock = clock
        self.phoneSecureElement = phoneSecureElement
        self.watchSecureElement = watchSecureElement
        self.phone = SandboxDevice(kind: .phone, secureElementPublicKey: phoneSecureElement.publicKey)
        self.watch = watchSecureElement.map { SandboxDevice(kind: .watch, secureElementPublicKey: $0.publicKey) }
        var libraries = [SandboxDeviceKind.phone: SandboxPassLibrary(deviceKind: .phone)]
        if watchSecureElement != nil { libraries[.watch] = SandboxPassLibrary(deviceKind: .watch) }
        self.libraries = libraries
    }

    public nonisolated var hasPairedWatch: Bool { watch != nil }

    /// The iPhone, then the Watch when one is paired.
    public nonisolated var devices: [SandboxDevice] { [phone] + (watch.map { [$0] } ?? []) }

    public nonisolated func device(_ kind: SandboxDeviceKind) throws -> SandboxDevice {
        switch kind {
        case .phone: return phone
        case .watch:
            guard let watch else { throw Self.noWatch() }
            return watch
        case .androidPhone, .galaxyWatch: throw Self.notApple(kind)
        }
    }

    // MARK: - Adding a card

    /// Starts adding a card on `kind`: what PassKit hands `generateRequestWithCertificateChain`.
    ///
    /// - Parameter primaryAccountIdentifier: the card the app names in its request configuration;
    ///   Wallet refuses to add a card that is already on that device.
    public func beginAdd(
        on kind: SandboxDeviceKind, scheme: EncryptionScheme, primaryAccountIdentifier: String? = nil
    ) throws -> AddPaymentPassSession {
        let device = try self.device(kind)
        let secureElement = try secureElement(kind)
        if let primaryAccountIdentifier, libraries[kind]?.pass(primaryAccountIdentifier: primaryAccountIdentifier) != nil {
            throw ProvisioError(.sandboxPassExists, "This card is already in Wallet on the \(kind).")
        }
        let certificates = try certificateAuthority.chainDER(for: scheme)
        let nonce = SandboxRandom.bytes(AddPaymentPassSession.nonceLength)
        let now = clock.now()
        let session = AddPaymentPassSession(
            id: SandboxRandom.identifier(prefix: "sbx_session_"), device: device, scheme: scheme,
            certificates: certificates, nonce: nonce, nonceSignature: try secureElement.signature(for: nonce),
            primaryAccountIdentifier: primaryAccountIdentifier, createdAt: now,
            expiresAt: now.addingTimeInterval(AddPaymentPassSession.lifetime))
        sessions.prune(at: now)
        sessions.open(session)
        return session
    }

    /// A session this wallet began (answered or not), while it is remembered.
    public func session(id: String) -> AddPaymentPassSession? {
        sessions.session(id: id)
    }

    /// Hands the session to Apple's service for its single answer (see the ledger).
    func claimSession(id: String, at time: Date) throws -> AddPaymentPassSession {
        try sessions.claim(id: id, at: time)
    }

    // MARK: - Pass library

    /// Puts a pass on a device (what Wallet does once the network has created the token).
    @discardableResult
    public func addPass(
        on kind: SandboxDeviceKind, primaryAccountIdentifier: String, primaryAccountNumberSuffix: String,
        deviceAccountIdentifier: String, activationState: SandboxPassActivationState = .activated,
        details: CardDetails = CardDetails(), profile: SandboxCardProfile? = nil
    ) throws -> SandboxPass {
        _ = try self.device(kind)
        guard !primaryAccountIdentifier.isEmpty, !deviceAccountIdentifier.isEmpty else {
            throw ProvisioError(.sandboxPassInvalid, "A pass needs a primary account identifier and a device account identifier.")
        }
        guard primaryAccountNumberSuffix.utf8.count == 4,
            primaryAccountNumberSuffix.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else {
            throw ProvisioError(.sandboxPassInvalid, "A pass's primary account number suffix is exactly four digits.")
        }
        if self.pass(deviceAccountIdentifier: deviceAccountIdentifier) != nil {
            throw ProvisioError(.sandboxPassExists, "Another pass already has this device account identifier.")
        }
        let pass = SandboxPass(
            serialNumber: SandboxRandom.identifier(prefix: "", byteCount: 12), primaryAccountIdentifier: primaryAccountIdentifier,
            primaryAccountNumberSuffix: primaryAccountNumberSuffix, deviceAccountIdentifier: deviceAccountIdentifier,
            activationState: activationState, deviceKind: kind, details: details, profile: profile)
        try libraries[kind]?.insert(pass)
        return pass
    }

    /// The passes on one device, or on both (iPhone first) when `kind` is nil.
    public func passes(on kind: SandboxDeviceKind? = nil) -> [SandboxPass] {
        searchedLibraries(kind).flatMap(\.passes)
    }

    /// The passes the app with this application identifier (`TEAMID.bundle.id`) sees in its pass
    /// library, on one device or on both (iPhone first): a product's passes only in the product's
    /// associated apps, a pass without a product in every app.
    public func passes(visibleToApplication applicationIdentifier: String, on kind: SandboxDeviceKind? = nil)
        -> [SandboxPass]
    {
        searchedLibraries(kind).flatMap { $0.passes(visibleToApplication: applicationIdentifier) }
    }

    /// The iPhone's passes (PassKit's `passes(of: .secureElement)`).
    public func localPasses() -> [SandboxPass] { passes(on: .phone) }

    /// The paired Watch's passes (PassKit's `remoteSecureElementPasses`).
    public func remotePasses() -> [SandboxPass] { passes(on: .watch) }

    /// The card's passes: at most one per device.
    public func passes(primaryAccountIdentifier: String, on kind: SandboxDeviceKind? = nil) -> [SandboxPass] {
        searchedLibraries(kind).compactMap { $0.pass(primaryAccountIdentifier: primaryAccountIdentifier) }
    }

    public func pass(primaryAccountIdentifier: String, on kind: SandboxDeviceKind) -> SandboxPass? {
        libraries[kind]?.pass(primaryAccountIdentifier: primaryAccountIdentifier)
    }

    public func pass(serialNumber: String, on kind: SandboxDeviceKind? = nil) -> SandboxPass? {
        searchedLibraries(kind).lazy.compactMap { $0.pass(serialNumber: serialNumber) }.first
    }

    public func pass(deviceAccountIdentifier: String, on kind: SandboxDeviceKind? = nil) -> SandboxPass? {
        searchedLibraries(kind).lazy.compactMap { $0.pass(deviceAccountIdentifier: deviceAccountIdentifier) }.first
    }

    /// Whether the card can still be added to this device (it is a device of the wallet and the
    /// card is not on it) — when the app may show "Add to Apple Wallet" for it.
    public func canAddPass(primaryAccountIdentifier: String, on kind: SandboxDeviceKind) -> Bool {
        guard let library = libraries[kind] else { return false }
        return library.pass(primaryAccountIdentifier: primaryAccountIdentifier) == nil
    }

    /// Whether the card can be added to the iPhone or to the paired Watch.
    public func canAddPass(primaryAccountIdentifier: String) -> Bool {
        SandboxDeviceKind.apple.contains { canAddPass(primaryAccountIdentifier: primaryAccountIdentifier, on: $0) }
    }

    @discardableResult
    public func updateActivationState(
        _ state: SandboxPassActivationState, serialNumber: String, on kind: SandboxDeviceKind? = nil
    ) throws -> SandboxPass {
        for deviceKind in searchedLibraries(kind).map(\.deviceKind) {
            if let updated = try libraries[deviceKind]?.setActivationState(state, serialNumber: serialNumber) {
                return updated
            }
        }
        throw Self.unknownPass(on: kind)
    }

    /// Shows new card details on a pass (the network's update after a reissue), and the new
    /// number's last four digits when the card got one.
    @discardableResult
    public func updateDetails(
        _ details: CardDetails, primaryAccountNumberSuffix: String? = nil, serialNumber: String,
        on kind: SandboxDeviceKind? = nil
    ) throws -> SandboxPass {
        for deviceKind in searchedLibraries(kind).map(\.deviceKind) {
            if let updated = libraries[deviceKind]?.setDetails(
                details, suffix: primaryAccountNumberSuffix, serialNumber: serialNumber)
            {
                return updated
            }
        }
        throw Self.unknownPass(on: kind)
    }

    /// Gives a pass its card product's new profile (the network's update after a product
    /// change): the pass shows the product's name as its title and its art, and only the
    /// product's associated apps see it from now on.
    @discardableResult
    public func updateProfile(_ profile: SandboxCardProfile, serialNumber: String, on kind: SandboxDeviceKind? = nil)
        throws -> SandboxPass
    {
        for deviceKind in searchedLibraries(kind).map(\.deviceKind) {
            if let updated = libraries[deviceKind]?.setProfile(profile, serialNumber: serialNumber) {
                return updated
            }
        }
        throw Self.unknownPass(on: kind)
    }

    /// The link Wallet opens in the issuer's app for a pass (`SandboxPass.appLaunchURL`).
    public func appLaunchURL(serialNumber: String, on kind: SandboxDeviceKind? = nil) throws -> String {
        guard let pass = pass(serialNumber: serialNumber, on: kind) else { throw Self.unknownPass(on: kind) }
        guard let url = pass.appLaunchURL else {
            throw ProvisioError(
                .sandboxAppLaunchUnavailable,
                pass.profile == nil
                    ? "The pass's card has no product, so Wallet has no app to open for it."
                    : "The pass's card product names no app launch URL.")
        }
        return url
    }

    @discardableResult
    public func removePass(serialNumber: String, on kind: SandboxDeviceKind? = nil) throws -> SandboxPass {
        for deviceKind in searchedLibraries(kind).map(\.deviceKind) {
            if let removed = libraries[deviceKind]?.remove(serialNumber: serialNumber) {
                return removed
            }
        }
        throw Self.unknownPass(on: kind)
    }

    // MARK: - Helpers

    private func secureElement(_ kind: SandboxDeviceKind) throws -> SandboxSecureElement {
        switch kind {
        case .phone: return phoneSecureElement
        case .watch:
            guard let watchSecureElement else { throw Self.noWatch() }
            return watchSecureElement
        case .androidPhone, .galaxyWatch: throw Self.notApple(kind)
        }
    }

    /// The libraries to search, iPhone first; none for an unpaired Watch.
    private func searchedLibraries(_ kind: SandboxDeviceKind?) -> [SandboxPassLibrary] {
        (kind.map { [$0] } ?? SandboxDeviceKind.apple).compactMap { libraries[$0] }
    }

    private static func noWatch() -> ProvisioError {
        ProvisioError(.sandboxDeviceUnavailable, "No Apple Watch is paired with this iPhone.")
    }

    private static func notApple(_ kind: SandboxDeviceKind) -> ProvisioError {
        ProvisioError(.sandboxDeviceUnavailable, "Apple Wallet is not on an \(kind).")
    }

    private static func unknownPass(on kind: SandboxDeviceKind?) -> ProvisioError {
        ProvisioError(.sandboxPassUnknown, "No pass has this serial number\(kind.map { " on the \($0)" } ?? "").")
    }
}
