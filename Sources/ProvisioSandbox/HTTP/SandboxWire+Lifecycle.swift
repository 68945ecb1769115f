extension SandboxWire {
    /// `POST /sandbox/v1/tokens/{ref}/events`: something the cardholder or the network does to
    /// a token, which the network reports to the issuer.
    public struct TokenEventRequest: Sendable, Hashable {
        public enum Event: String, Sendable, Hashable, CaseIterable {
            /// The card was removed from Wallet: the token is deleted, the pass goes.
            case removedFromWallet = "removed_from_wallet"
            /// The device was reported lost: token and pass are suspended.
            case deviceLost = "device_lost"
            /// The token reached its end of life: deleted, the pass deactivated.
            case tokenExpired = "token_expired"
        }

        public var event: Event

        public init(event: Event) {
            self.event = event
        }
    }
}
