/// What Google Wallet's activity hands back to the issuer's app after a push: Android's
/// `Activity.RESULT_OK` (-1) with `EXTRA_ISSUER_TOKEN_ID`, the id later calls take
/// (docs/android-wallets.md §3, from Expensify's public wrapper).
///
/// Under UPP the result is a `PushTokenizeResult` in `EXTRA_PUSH_TOKENIZE_RESULT`, which reports
/// the device token and the card saved to the Google Account apart: Pomelo's public sample reads
/// `tokenizationOutcomes` (each a `tokenResult` and `tokenStatus`) and `cardResult`/`cardStatus`
/// ([POM] `PushProvisioningResultResolver.kt`; §1). The sandbox answers one device token and
/// `cardResult`; a refusal of either is thrown with its own code (the Google OPC's as
/// `TAP_AND_PAY_SAVE_CARD_ERROR`, 15019, the device token's as 15022 or 15024). The token's
/// state comes from `getTokenStatus` in the real API; the sandbox hands it over too.
public struct GooglePushTokenizeResult: Sendable, Hashable {
    /// Android's `Activity.RESULT_OK`.
    public static let resultOK = -1

    public let resultCode: Int
    /// `EXTRA_ISSUER_TOKEN_ID`: the issuer's (Provisio's) id of the token.
    public let issuerTokenID: String
    /// `TOKEN_STATE_ACTIVE` on green, `TOKEN_STATE_NEEDS_IDENTITY_VERIFICATION` on yellow.
    public let tokenState: GoogleTokenState
    /// `cardResult`: the card was saved to the Google Account (UPP with a Google OPC); false
    /// for a legacy push.
    public let cardResult: Bool
    /// The push came through bounce provisioning.
    public let isBounceProvisioned: Bool

    init(
        resultCode: Int, issuerTokenID: String, tokenState: GoogleTokenState, cardResult: Bool = false,
        isBounceProvisioned: Bool = false
    ) {
        self.resultCode = resultCode
        self.issuerTokenID = issuerTokenID
        self.tokenState = tokenState
        self.cardResult = cardResult
        self.isBounceProvisioned = isBounceProvisioned
    }
}
