/// The identifier of a pass entry handed to Wallet: the card and the device it was offered for,
/// as "phone:<card id>" or "watch:<card id>".
///
/// Why the device is in it: Wallet calls `generateAddPaymentPassRequestForPassEntryWithIdentifier`
/// with the identifier only, and the extension must know which device the add goes to (to refuse
/// a card already there and to record the pending add for that device).
public struct PassEntryIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The configured card's id.
    public let cardID: String
    /// The device the entry was offered for.
    public let device: WalletDevice

    public init(cardID: String, device: WalletDevice) {
        self.cardID = cardID
        self.device = device
    }

    /// Parses the string form; nil for anything this SDK did not produce.
    public init?(rawValue: String) {
        guard let colon = rawValue.firstIndex(of: ":"), let device = WalletDevice(rawValue: String(rawValue[..<colon]))
        else { return nil }
        let cardID = String(rawValue[rawValue.index(after: colon)...])
        guard !cardID.isEmpty else { return nil }
        self.init(cardID: cardID, device: device)
    }

    /// The string given to Wallet.
    public var rawValue: String { "\(device.rawValue):\(cardID)" }

    public var description: String { rawValue }
}
