/// TapAndPay's `TOKEN_STATE_*`: the state Google Wallet reports for a token.
///
/// The values are those of `com.google.android.gms.tapandpay.TapAndPay` as microG's
/// reimplementation (`microg/GmsCore`, play-services-tapandpay) and decompiled copies of Google's
/// library define them; the meanings are Thales's and Weavr's public SDK docs
/// (docs/android-wallets.md §3). Google's own reference is behind a sign-in. A deleted token has
/// no state: it is simply absent (`TAP_AND_PAY_TOKEN_NOT_FOUND`).
public enum GoogleTokenState: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Not tokenized; not applicable to push provisioning (Thales).
    case untokenized = 1
    /// Not usable for payments yet, but will be after some time.
    case pending = 2
    /// In the wallet, waiting for the yellow path's identity verification.
    case needsIdentityVerification = 3
    case suspended = 4
    case active = 5
    /// The TSP issued it; FeliCa provisioning (Japan) is not finished.
    case felicaPendingProvisioning = 6

    /// The constant's name, `TOKEN_STATE_ACTIVE` and so on.
    public var constantName: String {
        switch self {
        case .untokenized: "TOKEN_STATE_UNTOKENIZED"
        case .pending: "TOKEN_STATE_PENDING"
        case .needsIdentityVerification: "TOKEN_STATE_NEEDS_IDENTITY_VERIFICATION"
        case .suspended: "TOKEN_STATE_SUSPENDED"
        case .active: "TOKEN_STATE_ACTIVE"
        case .felicaPendingProvisioning: "TOKEN_STATE_FELICA_PENDING_PROVISIONING"
        }
    }

    public var description: String { constantName }
}
