/// What `getWalletInfo` answers with no keys on Android: the device's id, the Samsung account's
/// wallet user id and the wallet's device-management id (Samsung's "retrieve wallet info" page;
/// key strings from Samsung's Flutter plugin; docs/samsung-wallet.md). They feed the network's
/// payload; the sandbox's network does not check them against it (not public how it would).
public struct SamsungWalletInfo: Sendable, Hashable {
    public static let deviceIDKey = "deviceId"
    public static let walletUserIDKey = "walletUserId"
    public static let walletDMIDKey = "walletDMId"

    public let deviceID: String
    public let walletUserID: String
    public let walletDMID: String

    /// The answer's bundle, under Samsung's keys.
    public var bundle: [String: String] {
        [Self.deviceIDKey: deviceID, Self.walletUserIDKey: walletUserID, Self.walletDMIDKey: walletDMID]
    }
}
