import ProvisioSandbox

/// The counterparty the HTTP service exposes: the cardholder's wallet (iPhone and Watch),
/// Apple's provisioning service and the card network, wired to each other — Apple's service
/// forwards to this network, whose passes go to this wallet.
public struct SandboxHTTPWorld: Sendable {
    public let wallet: SandboxWallet
    public let apple: SandboxAppleProvisioningService
    public let network: SandboxNetworkTokenService

    /// The CA whose chain the devices hand out; Provisio must trust its root.
    public var certificateAuthority: SandboxCertificateAuthority { wallet.certificateAuthority }

    /// - Parameters:
    ///   - network: the card network; its wallet is the world's wallet.
    ///   - apple: Apple's service; by default one that forwards every accepted submission to
    ///     `network`. One given here must answer the same wallet's sessions.
    public init(network: SandboxNetworkTokenService, apple: SandboxAppleProvisioningService? = nil) {
        let apple = apple ?? SandboxAppleProvisioningService(wallet: network.wallet, network: network)
        precondition(
            apple.wallet === network.wallet, "Apple's service and the network must serve the same sandbox wallet.")
        self.wallet = network.wallet
        self.apple = apple
        self.network = network
    }
}
