/// The identifiers Apple's Wallet extensions are found by. Where each one comes from:
///
/// - The extension points: `com.apple.PassKit.issuer-provisioning` (non-UI) and
///   `com.apple.PassKit.issuer-provisioning.authorization` (UI). PassKit looks the UI extension up
///   by exactly this `NSExtensionPointIdentifier` *and* `ENTITLEMENT:com.apple.developer.payment-pass-provisioning`
///   (PassKitUI's `PKIssuerProvisioningExtensionAuthorizationViewController`), so each extension needs
///   the entitlement too, not only the app.
/// - The principal classes: "The principal class of your app's extension target must be a subclass of
///   `PKIssuerProvisioningExtensionHandler`" and "The principal class of your app's authorization user
///   interface extension target must conform to the `PKIssuerProvisioningExtensionAuthorizationProviding`
///   protocol" (developer.apple.com/documentation/passkit, both pages).
/// - `com.apple.developer.payment-pass-provisioning`: "In-app provisioning of payment cards" (Apple's
///   Entitlement Key Reference, Apple Pay and PassKit Entitlements).
/// - `com.apple.security.application-groups` ("Format the identifier as follows: group.<group name>",
///   App Groups Entitlement) and `keychain-access-groups` (Keychain Access Groups Entitlement).
public enum WalletIdentifiers {
    /// The non-UI extension Wallet asks for status, entries and the add request.
    public static let nonUIExtensionPoint = "com.apple.PassKit.issuer-provisioning"
    /// The UI extension Wallet presents when the non-UI extension requires authentication.
    public static let uiExtensionPoint = "com.apple.PassKit.issuer-provisioning.authorization"
    /// The base class of the non-UI extension's principal class.
    public static let nonUIBaseClass = "PKIssuerProvisioningExtensionHandler"
    /// The protocol the UI extension's principal class conforms to.
    public static let uiProtocol = "PKIssuerProvisioningExtensionAuthorizationProviding"
    /// The entitlement Apple grants card issuers.
    public static let paymentPassEntitlement = "com.apple.developer.payment-pass-provisioning"
    /// The App Groups entitlement.
    public static let appGroupsEntitlement = "com.apple.security.application-groups"
    /// The keychain sharing entitlement.
    public static let keychainGroupsEntitlement = "keychain-access-groups"
    /// Universal links (`applinks:`), an alternative to a custom URL scheme for Wallet's link.
    public static let associatedDomainsEntitlement = "com.apple.developer.associated-domains"
    /// The Info.plist dictionary ProvisioKit's `ProvisioWalletExtensionHandler` and the example's
    /// `IssuerAppSettings` read (`ProvisioWalletExtensionHandler.infoDictionaryKey`).
    public static let provisioDictionary = "ProvisioExtension"
    /// The keys of that dictionary, all three required.
    public static let provisioAppGroupKey = "AppGroup"
    public static let provisioKeychainGroupKey = "KeychainAccessGroup"
    public static let provisioServerURLKey = "ServerURL"
    /// Classes known to satisfy the principal-class requirement without their source at hand:
    /// Apple's base class and ProvisioKit's handler, which subclasses it.
    public static let knownNonUIHandlers: Set<String> = [nonUIBaseClass, "ProvisioWalletExtensionHandler"]
}
