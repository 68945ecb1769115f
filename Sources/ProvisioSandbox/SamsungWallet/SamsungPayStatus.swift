/// What `getSamsungPayStatus` answers (Samsung's `SpaySdk` status table; values from Samsung's
/// Flutter plugin, docs/samsung-wallet.md). Only `ready` lets the partner list or add cards.
public enum SamsungPayStatus: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case notSupported = 0
    case notReady = 1
    case ready = 2
    case notAllowedTemporally = 3

    /// Samsung's constant, `SPAY_READY`.
    public var constantName: String {
        switch self {
        case .notSupported: "SPAY_NOT_SUPPORTED"
        case .notReady: "SPAY_NOT_READY"
        case .ready: "SPAY_READY"
        case .notAllowedTemporally: "SPAY_NOT_ALLOWED_TEMPORALLY"
        }
    }

    public var description: String { constantName }
}
