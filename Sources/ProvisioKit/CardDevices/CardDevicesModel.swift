import ProvisioClient

/// What a "this card on your devices" screen shows for one card: its live wallet tokens
/// (`ProvisioMobileClient.walletTokens()`), grouped by wallet, each with the changes its state
/// allows. Pure and value-typed, so a SwiftUI view, a UIKit table or a test reads the same thing.
///
/// - Active: suspend (a lost device) or remove.
/// - Suspended: resume (found again) or remove.
/// - Pending verification: remove, or activate in the app after the app authenticated the
///   cardholder (`InAppVerification.activateAfterAppAuthentication(_:client:confirm:)`).
///
/// After a change, `applying(_:)` the token the server answered keeps the screen in step without
/// listing again; a deleted token leaves the screen.
public struct CardDevicesModel: Hashable, Sendable {
    /// The card's tokens in one wallet.
    public struct Group: Hashable, Sendable, Identifiable {
        public var wallet: WalletToken.Wallet
        /// Phones first, then watches, tablets and devices the network did not name; oldest
        /// first within each.
        public var rows: [CardDeviceRow]
        public var id: WalletToken.Wallet { wallet }
    }

    public let cardID: String
    /// The card's last four digits (from its tokens), nil while it is on no device.
    public let cardLast4: String?
    /// Wallets in a fixed order (Apple Pay, Google Pay, Samsung Pay); only those with a token.
    public let groups: [Group]

    /// - Parameter tokens: the customer's tokens as listed; those of other cards, and any no
    ///   longer live, are left out.
    public init(cardID: String, tokens: [WalletToken]) {
        let mine = tokens.filter { $0.cardID == cardID && $0.state.isLive }
        self.cardID = cardID
        self.cardLast4 = mine.first?.cardLast4
        self.groups = WalletToken.Wallet.allCases.compactMap { wallet in
            let rows = mine.filter { $0.wallet == wallet }
                .sorted { ($0.deviceOrder, $0.createdAt, $0.id) < ($1.deviceOrder, $1.createdAt, $1.id) }
                .map(CardDeviceRow.init)
            return rows.isEmpty ? nil : Group(wallet: wallet, rows: rows)
        }
    }

    /// Every row, group by group.
    public var rows: [CardDeviceRow] { groups.flatMap(\.rows) }

    /// Whether the card is on no device (the screen says so, and offers the add instead).
    public var isEmpty: Bool { groups.isEmpty }

    /// The row of the token `id`, if it is on the screen.
    public func row(id: String) -> CardDeviceRow? { rows.first { $0.id == id } }

    /// The screen after `token` changed (the server's answer to a change or an activation):
    /// its row updated, or gone when the token is no longer live.
    public func applying(_ token: WalletToken) -> CardDevicesModel {
        CardDevicesModel(cardID: cardID, tokens: rows.map(\.token).filter { $0.id != token.id } + [token])
    }
}

extension WalletToken {
    /// Phones first: the device a cardholder most often looks for.
    fileprivate var deviceOrder: Int {
        switch deviceType {
        case .phone: 0
        case .watch: 1
        case .tablet: 2
        case nil: 3
        }
    }
}
