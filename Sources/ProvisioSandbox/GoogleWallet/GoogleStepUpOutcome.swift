/// What became of a token after the issuer's app answered app-to-app verification: active,
/// or still `NEEDS_IDENTITY_VERIFICATION` with the reason (the app declined or failed, or the
/// network did not activate it).
public struct GoogleStepUpOutcome: Sendable, Hashable {
    public let issuerTokenID: String
    public let tokenState: GoogleTokenState
    /// Why the token is still pending; nil once it is active.
    public let reason: String?
}
