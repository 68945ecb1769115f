/// What Google Wallet's activity hands back to the issuer's app after `pushTokenize`: Android's
/// `Activity.RESULT_OK` (-1) with `EXTRA_ISSUER_TOKEN_ID`, the id later calls take
/// (docs/android-wallets.md §3, from Expensify's public wrapper). The token's state comes from
/// `getTokenStatus` in the real API; the sandbox hands it over too, to save the app the call.
public struct GooglePushTokenizeResult: Sendable, Hashable {
    /// Android's `Activity.RESULT_OK`.
    public static let resultOK = -1

    public let resultCode: Int
    /// `EXTRA_ISSUER_TOKEN_ID`: the issuer's (Provisio's) id of the token.
    public let issuerTokenID: String
    /// `TOKEN_STATE_ACTIVE` on green, `TOKEN_STATE_NEEDS_IDENTITY_VERIFICATION` on yellow.
    public let tokenState: GoogleTokenState
}
