/// The two devices the issuer's iPhone app provisions to: the iPhone itself and its paired Watch.
///
/// PassKit, seen from the iPhone, calls the Watch's passes "remote" (`remoteSecureElementPasses`,
/// `remotePassEntries`), so `.watch` is always the remote one.
public enum WalletDevice: String, Codable, Hashable, Sendable, CaseIterable {
    case phone
    case watch

    /// True for the paired Watch, whose passes PassKit lists as remote.
    public var isRemote: Bool { self == .watch }

    /// The device type Provisio's server and sandbox use for the same device.
    public var deviceType: DeviceType {
        switch self {
        case .phone: .phone
        case .watch: .watch
        }
    }
}
