import X509

/// A chain that passed `AppleCertificateChainValidator`: the leaf, the intermediate, the anchor
/// that vouched for them, and the leaf's key ready for sealing.
public struct ValidatedAppleChain: Sendable {
    public let leaf: Certificate
    public let intermediate: Certificate
    public let anchor: Certificate
    public let recipient: RecipientPublicKey
}
