import ProvisioCore

/// The devices of the sandbox. Apple Wallet lives on the iPhone and its paired Watch (PassKit
/// calls the iPhone's passes "local" and the Watch's "remote": `passes(of:)` vs
/// `remoteSecureElementPasses`); Google Wallet and Samsung Wallet on an Android phone, and
/// Samsung Wallet also on a Galaxy Watch (Samsung's `WatchManager`, whose cards Samsung marks
/// `gear`).
public enum SandboxDeviceKind: String, Codable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case phone
    case watch
    case androidPhone = "android_phone"
    case galaxyWatch = "galaxy_watch"

    /// The kinds Apple Wallet can be on.
    public static let apple: [SandboxDeviceKind] = [.phone, .watch]

    /// The device type Provisio's API records for a provisioning attempt: its form, whatever
    /// the wallet.
    public var deviceType: DeviceType {
        switch self {
        case .phone, .androidPhone: .phone
        case .watch, .galaxyWatch: .watch
        }
    }

    /// True for the Apple Watch: seen from the iPhone, its passes are remote.
    public var isRemote: Bool { self == .watch }

    public var description: String {
        switch self {
        case .phone: "iPhone"
        case .watch: "Apple Watch"
        case .androidPhone: "Android phone"
        case .galaxyWatch: "Galaxy Watch"
        }
    }
}
