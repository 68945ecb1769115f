/// The explicit intent Google Wallet starts the issuer's app with for app-to-app identity
/// verification ([G-A2A]; docs/android-wallets.md §4): the issuer's package, an action specific
/// to token activation, and `EXTRA_TEXT`, opaque to Google. The app must check the caller
/// (`Activity.getCallingPackage()`) is Google Play services.
///
/// Visa's form ([POM] `SPEC_A2A.md`): the action is `{package}.a2a`. The TSP tells Google the
/// package and action at tokenization; in the sandbox the wallet is told the issuer's package
/// when it is made.
public struct GoogleAppToAppIntent: Sendable, Hashable {
    /// Google Play services, the package the issuer's app sees as its caller.
    public static let googlePlayServicesPackage = "com.google.android.gms"

    public let packageName: String
    public let action: String
    /// `Intent.EXTRA_TEXT`: `GoogleAppToAppPayload`, base64url JSON.
    public let extraText: String
    /// What `getCallingPackage()` answers the issuer's app.
    public let callingPackage: String
    public let issuerTokenID: String
}
