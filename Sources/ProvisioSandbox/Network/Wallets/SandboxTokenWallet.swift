import ProvisioCore

/// The wallet a network token lives in, as the card network reaches it: Apple Wallet on an
/// iPhone or Watch, Google Wallet on an Android phone. The network creates the token, then
/// has the wallet install the card; later it changes the card's state, removes it or shows
/// new details. Each wallet turns these into its own terms (a pass's activation state,
/// TapAndPay's `TOKEN_STATE_*`).
///
/// `handle` is the wallet's own name for the installed card, which `install` returns and the
/// network keeps on the token: Apple's pass serial number, Google's issuer token id.
public protocol SandboxTokenWallet: Sendable {
    /// Which wallet this is; the issuer's decision request names it.
    var walletKind: Wallet { get }

    /// Puts the card on `device` in `state` (activated on green, requiring activation on yellow).
    func install(_ card: SandboxWalletCard, state: SandboxPassActivationState, on device: SandboxDevice) async throws
        -> String

    func setState(_ state: SandboxPassActivationState, handle: String, on device: SandboxDevice) async throws

    func remove(handle: String, on device: SandboxDevice) async throws

    /// Shows a reissued card's details (only the fields `details` sets), and the new number's
    /// last four digits when it got one.
    func showDetails(_ details: CardDetails, newLast4: String?, handle: String, on device: SandboxDevice) async throws

    /// Gives the card its product's new profile (Apple Wallet: which apps see the pass, the link
    /// it opens). The product's name and art reach every wallet through `showDetails`.
    func showProfile(_ profile: SandboxCardProfile, handle: String, on device: SandboxDevice) async throws
}

extension SandboxTokenWallet {
    /// A wallet that keeps no profile on its cards (Google's, Samsung's in the sandbox).
    public func showProfile(_ profile: SandboxCardProfile, handle: String, on device: SandboxDevice) async throws {}
}
