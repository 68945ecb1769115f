import Foundation

/// Bounce provisioning: the cardholder picks the issuer's card in Google Wallet, and Google
/// Wallet starts the issuer's app with this intent; the app then runs the ordinary UPP push,
/// marked `setIsBounceProvisioned(true)` ([POM]: its manifest's intent filter and
/// `BounceProvisioningActivity`; docs/android-wallets.md §1).
///
/// The action's full string is Pomelo's manifest's. Which extras Google puts in the intent is
/// not public: the sandbox puts none, and the app learns nothing of the card from it (Pomelo's
/// sample reads nothing either). Assumed: one bounce is open at a time, for ten minutes.
public struct GoogleInitiateProvisioningIntent: Sendable, Hashable {
    public static let actionInitiateProvisioning = "com.google.android.gms.tapandpay.issuer.ACTION_INITIATE_PROVISIONING"

    public let action: String
    /// The issuer's app Google Wallet starts (its package name).
    public let packageName: String
    /// Until when Google Wallet waits for the app's push.
    public let expiresAt: Date
}
