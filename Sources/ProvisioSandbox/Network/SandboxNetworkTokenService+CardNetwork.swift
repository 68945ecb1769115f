import ProvisioCore

extension SandboxNetworkTokenService {
    /// `provision(opaquePaymentCard:into:on:walletRequestID:)` for a wallet whose add names the
    /// token service provider (Samsung's `tokenizationProvider`): the card inside must be of one
    /// of `networks`, the networks that provider serves, or the network refuses it
    /// (`sandbox_opc_network_mismatch`) before the issuer is asked. The sandbox's one network
    /// plays every provider, so only the card's own network tells a wrong provider apart.
    @discardableResult
    public func provision(
        opaquePaymentCard: String, ofNetworks networks: Set<PaymentNetwork>, into wallet: any SandboxTokenWallet,
        on device: SandboxDevice, walletRequestID: String
    ) async throws -> NetworkProvisioningOutcome {
        let card = try opcKey.open(opaquePaymentCard)
        let network = PaymentNetwork(bin: card.primaryAccountNumber.bin)
        guard networks.contains(network) else {
            let named = networks.map(\.rawValue).sorted().joined(separator: ", ")
            throw ProvisioError(
                .sandboxOpcNetworkMismatch,
                "The opaque payment card holds a \(network.rawValue) card; the wallet sent it to the token service for "
                    + (named.isEmpty ? "a network the sandbox does not play." : "\(named)."))
        }
        return try await provision(
            opaquePaymentCard: opaquePaymentCard, into: wallet, on: device, walletRequestID: walletRequestID)
    }
}
