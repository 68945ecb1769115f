/// A card's `deviceType` in its bundle: `phone`, or `gear` for a Galaxy Watch reached through
/// `WatchManager` (`DEVICE_TYPE_PHONE` / `DEVICE_TYPE_GEAR`, Samsung's Flutter plugin;
/// docs/samsung-wallet.md).
public enum SamsungDeviceType: String, Sendable, Hashable, CaseIterable {
    case phone
    case gear
}
