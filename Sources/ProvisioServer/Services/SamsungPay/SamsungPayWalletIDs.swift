import ProvisioCore

/// What the issuer app read with the Samsung Pay SDK's `getWalletInfo` and may send along:
/// checked (1 to 128 printable ASCII characters each) and not put in the payload, which the
/// sandbox network reads without them.
public struct SamsungPayWalletIDs: Sendable, Equatable {
    public var deviceID: String?
    public var walletUserID: String?

    public static let maximumLength = 128

    public init(deviceID: String?, walletUserID: String?) throws {
        for (field, value) in [("device_id", deviceID), ("wallet_user_id", walletUserID)] {
            guard let value else { continue }
            guard (1...Self.maximumLength).contains(value.utf8.count), value.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
            else {
                throw ProvisioError(.invalidParameter, "\(field) must be 1 to \(Self.maximumLength) printable ASCII characters.")
            }
        }
        self.deviceID = deviceID
        self.walletUserID = walletUserID
    }
}
