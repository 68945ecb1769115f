import ProvisioCore

/// The two devices of the sandbox wallet. PassKit calls the iPhone's passes "local" and the
/// paired Watch's passes "remote" (`passes(of:)` vs `remoteSecureElementPasses`).
public enum SandboxDeviceKind: String, Codable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case phone
    case watch

    /// The device type Provisio's API records for a provisioning attempt.
    public var deviceType: DeviceType {
        switch self {
        case .phone: .phone
        case .watch: .watch
        }
    }

    /// True for the Watch: seen from the iPhone, its passes are remote.
    public var isRemote: Bool { self == .watch }

    public var description: String {
        switch self {
        case .phone: "iPhone"
        case .watch: "Apple Watch"
        }
    }
}
