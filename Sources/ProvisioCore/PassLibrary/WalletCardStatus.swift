/// A card's state in Apple Wallet on one device, as the issuer app shows it.
///
/// Named apart from `CardStatus` (the server's active / closed eligibility of a card).
/// - `notAdded`: the device can take the card and no pass on it can be the card's.
/// - `activated` … `deactivated`: the card's pass is there, in that `PassActivationState`.
/// - `unavailable`: no pass of the card is there and the device cannot take one — the iPhone
///   cannot add payment passes (`canAddPaymentPass` false), or, for the Watch, none is paired
///   (or the iPhone cannot add). A pass already present is reported by its state instead.
/// - `unknown`: there is a pass that may be the card's but it cannot be told with certainty:
///   a pass without a primary account identifier whose last 4 several of the issuer's cards
///   share; passes of the card that disagree on their (live) state; or a state PassKit reports
///   that this SDK does not know.
public enum WalletCardStatus: String, Codable, Hashable, Sendable, CaseIterable {
    case notAdded
    case activated
    case requiresActivation
    case activating
    case suspended
    case deactivated
    case unavailable
    case unknown

    /// The status of one pass's state.
    public init(_ state: PassActivationState) {
        switch state {
        case .activated: self = .activated
        case .requiresActivation: self = .requiresActivation
        case .activating: self = .activating
        case .suspended: self = .suspended
        case .deactivated: self = .deactivated
        }
    }

    /// The status several passes of the same card on one device give: their common state; when
    /// they differ, the common state of the live ones (a deactivated pass is a leftover of an
    /// earlier token); otherwise `unknown`. Empty → nil.
    init?(combining passes: [WalletPassSnapshot]) {
        guard let first = passes.first else { return nil }
        if passes.allSatisfy({ $0.activationState == first.activationState }) {
            self = first.activationState.map(WalletCardStatus.init) ?? .unknown
            return
        }
        let live = passes.filter { $0.activationState != .deactivated }
        if let state = live.first?.activationState, live.allSatisfy({ $0.activationState == state }) {
            self = WalletCardStatus(state)
        } else {
            self = .unknown
        }
    }
}
