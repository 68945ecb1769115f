/// What Samsung Wallet starts the issuer's app with for app-to-app identity verification
/// (`startActivityForResult` with an action and `EXTRA_TEXT`; docs/samsung-wallet.md).
///
/// `extraText` for Mastercard is standard Base64 of a JSON object with `paymentAppProviderId`,
/// `paymentAppInstanceId`, `tokenUniqueReference`, `accountPanSuffix`, `accountExpiry`; for Visa
/// a JSON object with `panReferenceID`, `tokenRequestorID`, `tokenReferenceID`, `panLast4`,
/// `deviceID`, `walletAccountID`. Samsung says Visa's is encrypted, but not to which key nor how:
/// the sandbox sends it Base64URL-encoded and not encrypted (an assumption, as for Google).
public struct SamsungAppToAppRequest: Sendable, Hashable {
    /// The intent action. Its name "depends on the TSP" and is not public; these are the sandbox's.
    public static let mastercardAction = "com.provisio.sandbox.mastercard.ACTION_APP_TO_APP_IDV"
    public static let visaAction = "com.provisio.sandbox.visa.ACTION_APP_TO_APP_IDV"

    public let action: String
    /// `Intent.EXTRA_TEXT`.
    public let extraText: String
    public let tokenizationProvider: SamsungTokenizationProvider
    /// Samsung Wallet's card the request is for: the answer goes back for it.
    public let cardID: String
}
