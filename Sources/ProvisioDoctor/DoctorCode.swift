/// A finding's or an input error's stable code (`doctor.extension_point_missing`, …): what CI
/// matches on, so a code never changes meaning once published.
public struct DoctorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    // MARK: Targets and extension points

    /// No app target (an Info.plist without `NSExtension` that builds an application).
    public static let appMissing = Self("doctor.app_missing")
    /// A Wallet extension point is declared by no target, or an extension's `NSExtension` has no
    /// `NSExtensionPointIdentifier`.
    public static let extensionPointMissing = Self("doctor.extension_point_missing")
    /// An `NSExtensionPointIdentifier` that is almost a Wallet one (a typo, other case, a suffix).
    public static let extensionPointUnknown = Self("doctor.extension_point_unknown")
    /// Two targets declare the same Wallet extension point.
    public static let extensionPointDuplicated = Self("doctor.extension_point_duplicated")
    /// No `NSExtensionPrincipalClass` (nor, for the UI extension, `NSExtensionMainStoryboard`).
    public static let principalClassMissing = Self("doctor.principal_class_missing")
    /// The principal class does not subclass `PKIssuerProvisioningExtensionHandler` (non-UI) or
    /// conform to `PKIssuerProvisioningExtensionAuthorizationProviding` (UI).
    public static let principalClassWrong = Self("doctor.principal_class_wrong")
    /// The principal class is declared nowhere in the project's sources.
    public static let principalClassNotFound = Self("doctor.principal_class_not_found")
    /// A Swift principal class named without its module (`Handler` instead of
    /// `$(PRODUCT_MODULE_NAME).Handler`) and without `@objc(Handler)`: the runtime cannot find it.
    public static let principalClassUnqualified = Self("doctor.principal_class_unqualified")
    /// An extension's bundle identifier is not prefixed by the app's.
    public static let bundleIdentifierNotPrefixed = Self("doctor.bundle_identifier_not_prefixed")

    // MARK: Entitlements

    /// A target has no entitlements file (or, in a built app, no readable signature entitlements).
    public static let entitlementsMissing = Self("doctor.entitlements_missing")
    /// `com.apple.developer.payment-pass-provisioning` is not `true` in a target's entitlements.
    public static let paymentPassEntitlementMissing = Self("doctor.payment_pass_entitlement_missing")
    /// A target's entitlements list no App Group.
    public static let appGroupMissing = Self("doctor.app_group_missing")
    /// The three targets share no App Group, or `ProvisioExtension.AppGroup` is not one of the
    /// target's App Groups.
    public static let appGroupMismatch = Self("doctor.app_group_mismatch")
    /// An App Group identifier that does not start with `group.` (iOS).
    public static let appGroupInvalid = Self("doctor.app_group_invalid")
    /// A target's entitlements list no keychain access group.
    public static let keychainGroupMissing = Self("doctor.keychain_group_missing")
    /// The three targets share no keychain group, or `ProvisioExtension.KeychainAccessGroup` is not
    /// one of the target's keychain groups.
    public static let keychainGroupMismatch = Self("doctor.keychain_group_mismatch")

    // MARK: ProvisioExtension

    /// A target's Info.plist has no `ProvisioExtension` dictionary.
    public static let provisioConfigMissing = Self("doctor.provisio_config_missing")
    /// `AppGroup`, `KeychainAccessGroup` or `ServerURL` is missing, empty or not a string.
    public static let provisioConfigKeyMissing = Self("doctor.provisio_config_key_missing")
    /// The targets' `ProvisioExtension` values differ.
    public static let provisioConfigMismatch = Self("doctor.provisio_config_mismatch")
    /// `ServerURL` is not an absolute URL with a host.
    public static let serverURLInvalid = Self("doctor.server_url_invalid")
    /// `ServerURL` is not https (and not a loopback development server).
    public static let serverURLNotHTTPS = Self("doctor.server_url_not_https")

    // MARK: Wallet's link

    /// The app registers no URL scheme (and has no universal links) for Wallet's `appLaunchURL`.
    public static let urlSchemeMissing = Self("doctor.url_scheme_missing")
    /// A registered URL scheme that is not a valid scheme (RFC 3986), or is http/https.
    public static let urlSchemeInvalid = Self("doctor.url_scheme_invalid")
    /// The `--app-launch-url` given uses a scheme the app does not register.
    public static let urlSchemeMismatch = Self("doctor.url_scheme_mismatch")

    // MARK: Card art

    /// No card art in the project (an asset set or PNG whose name contains "CardArt").
    public static let cardArtMissing = Self("doctor.card_art_missing")
    /// Card art that is not a PNG.
    public static let cardArtNotPNG = Self("doctor.card_art_not_png")
    /// Card art that is not 1536 × 969 pixels.
    public static let cardArtWrongSize = Self("doctor.card_art_wrong_size")
    /// Card art of 4 MB or more.
    public static let cardArtTooLarge = Self("doctor.card_art_too_large")
    /// Card art that is not wider than tall.
    public static let cardArtNotLandscape = Self("doctor.card_art_not_landscape")
    /// Card art whose corners are transparent or cut out on a matte: Wallet rounds corners itself.
    public static let cardArtRoundedCorners = Self("doctor.card_art_rounded_corners")
    /// Card art whose pixels could not be read for the corner check (corrupt, or over a limit).
    public static let cardArtUnreadable = Self("doctor.card_art_unreadable")

    // MARK: Files

    /// An Info.plist or entitlements file that is not a property list (XML, binary or OpenStep).
    public static let plistUnreadable = Self("doctor.plist_unreadable")
    /// A file over the size the doctor reads; it is reported, not read.
    public static let fileTooLarge = Self("doctor.file_too_large")

    // MARK: --server

    /// The server did not answer (connection refused, TLS failure, timeout).
    public static let serverUnreachable = Self("doctor.server_unreachable")
    /// The server answered with a redirect; Provisio's clients follow none.
    public static let serverRedirects = Self("doctor.server_redirects")
    /// The server answered, but not as Provisio's mobile API does.
    public static let serverNotProvisio = Self("doctor.server_not_provisio")

    // MARK: Unusable input (exit status 2)

    /// PATH does not exist.
    public static let inputNotFound = Self("doctor.input_not_found")
    /// PATH is an .ipa (a zip archive), which the doctor does not open.
    public static let inputIPAUnsupported = Self("doctor.input_ipa_unsupported")
    /// PATH is a file or folder the doctor cannot examine (no Info.plist at all, an unreadable
    /// project.pbxproj, a file that is none of the supported kinds).
    public static let inputUnsupported = Self("doctor.input_unsupported")
    /// The folder holds more files than the doctor walks.
    public static let inputTooLarge = Self("doctor.input_too_large")
    /// An argument is invalid (`--server` over http to a public host, a malformed URL).
    public static let invalidArgument = Self("doctor.invalid_argument")
}
