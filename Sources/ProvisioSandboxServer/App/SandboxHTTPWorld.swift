import ProvisioSandbox

/// The counterparty the HTTP service exposes: the cardholder's wallets (Apple Wallet on the
/// iPhone and Watch, Google Wallet on an Android phone, Samsung Wallet on an Android phone and a
/// Galaxy Watch), Apple's provisioning service and the card network, wired to each other —
/// Apple's service forwards to this network, whose passes go to Apple Wallet; Google Wallet and
/// Samsung Wallet hand the network the cards added to them.
public struct SandboxHTTPWorld: Sendable {
    public let wallet: SandboxWallet
    public let apple: SandboxAppleProvisioningService
    public let network: SandboxNetworkTokenService
    public let google: SandboxGoogleWallet
    /// Samsung Wallet on an Android phone and a paired Galaxy Watch, adding to `network`.
    public let samsung: SandboxSamsungWallet

    /// The CA whose chain the devices hand out; Provisio must trust its root.
    public var certificateAuthority: SandboxCertificateAuthority { wallet.certificateAuthority }

    /// - Parameters:
    ///   - network: the card network; its wallet is the world's wallet.
    ///   - apple: Apple's service; by default one that forwards every accepted submission to
    ///     `network`. One given here must answer the same wallet's sessions.
    ///   - google: Google Wallet; by default one on a new Android phone, pushing to `network`,
    ///     without a key of its own (legacy pushes only). One given here must push to `network`.
    ///   - samsung: Samsung Wallet; by default one on a new phone and watch, adding to `network`.
    ///     One given here must add to `network`.
    public init(
        network: SandboxNetworkTokenService, apple: SandboxAppleProvisioningService? = nil,
        google: SandboxGoogleWallet? = nil, samsung: SandboxSamsungWallet? = nil
    ) {
        let apple = apple ?? SandboxAppleProvisioningService(wallet: network.wallet, network: network)
        precondition(
            apple.wallet === network.wallet, "Apple's service and the network must serve the same sandbox wallet.")
        self.wallet = network.wallet
        self.apple = apple
        self.network = network
        let google = google ?? SandboxGoogleWallet(tokenService: network)
        precondition(google.tokenService === network, "Google Wallet must push to the world's network.")
        self.google = google
        let samsung = samsung ?? SandboxSamsungWallet(tokenService: network)
        precondition(samsung.tokenService === network, "Samsung Wallet must add to the world's network.")
        self.samsung = samsung
    }
}
