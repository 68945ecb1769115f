/// What `tokenize` shows for a token the cardholder left in `NEEDS_IDENTITY_VERIFICATION`: the
/// methods to pick from. TapAndPay's `tokenize` restarts the yellow path in Wallet's own screens
/// and returns like `pushTokenize` ([EXP]; docs/android-wallets.md §3); the sandbox hands the
/// choice to the caller, who plays the cardholder.
public struct GoogleIdentityVerification: Sendable, Hashable {
    public let issuerTokenID: String
    public let tokenState: GoogleTokenState
    /// In the order the token service named them.
    public let methods: [GoogleIdentityVerificationMethod]
}
