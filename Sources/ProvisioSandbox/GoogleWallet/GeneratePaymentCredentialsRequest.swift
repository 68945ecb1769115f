/// What Google Wallet asks the issuer's app for in Unified Push Provisioning: TapAndPay's
/// `GeneratePaymentCredentialsRequest`, handed to the app's `PaymentCredentialsGenerator`.
///
/// The six getters are those of decompiled copies of Google's library ([GMS-DEC]); Pomelo's
/// public sample forwards `serverSessionId`, `stableHardwareId` and `walletId` to its backend
/// ([POM]); docs/android-wallets.md §1. What `auxiliaryOpaquePaymentCardRequested` asks for is
/// not public: the sandbox always says false.
public struct GeneratePaymentCredentialsRequest: Sendable, Hashable {
    /// Google's server session for this push; the Google OPC must name it.
    public let serverSessionID: String
    /// `getStableHardwareId`: the phone's id, the same across wallets.
    public let stableHardwareID: String
    /// `getActiveWalletId`.
    public let walletID: String
    /// The token requestor Google asks for (the sandbox's: TapAndPay's `TOKEN_REQUESTOR_ID_WALLET`).
    public let tokenRequestorID: String
    /// Whether Google wants a Google OPC this time (always true in the sandbox: it saves the card
    /// to the cardholder's Google Account on every UPP push).
    public let googleOpaquePaymentCardRequested: Bool
    public let auxiliaryOpaquePaymentCardRequested: Bool
}
