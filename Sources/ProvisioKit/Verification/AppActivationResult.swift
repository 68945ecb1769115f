import ProvisioClient

/// How an activation after the app's own authentication ended.
public enum AppActivationResult: Sendable, Hashable {
    /// Provisio and the card network activated the token; the pass is active.
    case activated(WalletToken)
    /// The cardholder did not confirm the card: nothing was sent to Provisio.
    case declined
    case failed(ProvisioClientError)
}
