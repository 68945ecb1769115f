/// `StatusListener.onSuccess(status, bundle)` for `getSamsungPayStatus`: the status and, when it
/// is not `SPAY_READY`, the bundle's `EXTRA_ERROR_REASON` (docs/samsung-wallet.md).
public struct SamsungPayStatusResult: Sendable, Hashable, CustomStringConvertible {
    public var status: SamsungPayStatus
    /// `errorReason`: why Samsung Pay is not ready (-356 → `activateSamsungPay()`, -357 →
    /// `goToUpdatePage()`, -11 for a partner that is not APP2APP, -350… when not supported).
    public var errorReason: SamsungErrorCode?

    public init(status: SamsungPayStatus, errorReason: SamsungErrorCode? = nil) {
        self.status = status
        self.errorReason = errorReason
    }

    public static let ready = SamsungPayStatusResult(status: .ready)

    public var description: String {
        errorReason.map { "\(status.constantName): \($0)" } ?? status.constantName
    }
}
