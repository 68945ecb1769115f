/// One token in Google Wallet as `listTokens` reports it (`TokenInfo`: `issuerTokenId`,
/// `fpanLastFour`, `tokenState`, per Expensify's public wrapper; docs/android-wallets.md §3),
/// with the network and TSP the push named, which `isTokenized` matches on, and whether Google
/// Wallet started the push (bounce provisioning, §1).
public struct GoogleTokenInfo: Sendable, Hashable {
    public let issuerTokenID: String
    public internal(set) var fpanLastFour: String
    public internal(set) var tokenState: GoogleTokenState
    public let network: GoogleCardNetwork
    public let tokenServiceProvider: GoogleTokenServiceProvider
    public let displayName: String
    /// The push was marked `setIsBounceProvisioned(true)` after Google Wallet started it.
    public let isBounceProvisioned: Bool
}
