import ProvisioCore

/// The cardholder deletes a token (docs/android-wallets.md §3, §7): the wallet tells the token
/// service, which reports `removed_from_wallet` to the issuer before the token leaves the
/// wallet, so a refusal there leaves everything as it was.
extension SandboxGoogleWallet {
    /// TapAndPay's `requestDeleteToken(tsp, issuerTokenId)`: the issuer's app asks, the cardholder
    /// confirms in Google Wallet (the sandbox plays them and confirms).
    public func requestDeleteToken(tokenServiceProvider: GoogleTokenServiceProvider, issuerTokenID: String) async throws {
        _ = try token(issuerTokenID, of: tokenServiceProvider)
        try await deleteInWallet(issuerTokenID: issuerTokenID)
    }

    /// The cardholder removes the card in Google Wallet's own screens.
    public func deleteInWallet(issuerTokenID: String) async throws {
        guard let installed = installed[issuerTokenID] else { throw Self.notFound() }
        try await tokenService.removeFromWallet(networkTokenRef: installed.networkTokenRef)
    }
}
