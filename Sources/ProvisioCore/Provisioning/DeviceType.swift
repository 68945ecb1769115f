/// The device a pass is provisioned to (Apple Wallet distinguishes the iPhone from the Watch).
public enum DeviceType: String, Codable, Hashable, Sendable, CaseIterable {
    case phone
    case watch
    case tablet

    public init(wireName: String) throws {
        guard let device = Self(rawValue: wireName) else {
            throw ProvisioError(.invalidDeviceType, "The device type must be one of phone, watch, tablet.")
        }
        self = device
    }
}
