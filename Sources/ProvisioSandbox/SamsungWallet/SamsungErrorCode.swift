/// The Samsung Pay SDK's error and reason numbers the sandbox's Samsung Wallet uses: what
/// `onFail(errorCode, …)` and a status's `EXTRA_ERROR_REASON` carry. Names from Samsung's API
/// reference (`SpaySdk`), numbers from Samsung's Flutter plugin (docs/samsung-wallet.md).
public enum SamsungErrorCode: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case none = 0
    case spayInternal = -1
    case invalidInput = -2
    case notSupported = -3
    case notFound = -4
    case alreadyDone = -5
    case notAllowed = -6
    case userCanceled = -7
    case partnerServiceType = -11
    case invalidParameter = -12
    case partnerInfoInvalid = -99
    case registrationFail = -104
    case deviceNotSamsung = -350
    case spayPackageNotFound = -351
    case spaySDKServiceNotAvailable = -352
    case deviceIntegrityCheckFail = -353
    case spaySetupNotCompleted = -356
    case spayAppNeedToUpdate = -357

    /// Samsung's constant, `ERROR_ALREADY_DONE`.
    public var constantName: String {
        switch self {
        case .none: "ERROR_NONE"
        case .spayInternal: "ERROR_SPAY_INTERNAL"
        case .invalidInput: "ERROR_INVALID_INPUT"
        case .notSupported: "ERROR_NOT_SUPPORTED"
        case .notFound: "ERROR_NOT_FOUND"
        case .alreadyDone: "ERROR_ALREADY_DONE"
        case .notAllowed: "ERROR_NOT_ALLOWED"
        case .userCanceled: "ERROR_USER_CANCELED"
        case .partnerServiceType: "ERROR_PARTNER_SERVICE_TYPE"
        case .invalidParameter: "ERROR_INVALID_PARAMETER"
        case .partnerInfoInvalid: "ERROR_PARTNER_INFO_INVALID"
        case .registrationFail: "ERROR_REGISTRATION_FAIL"
        case .deviceNotSamsung: "ERROR_DEVICE_NOT_SAMSUNG"
        case .spayPackageNotFound: "ERROR_SPAY_PKG_NOT_FOUND"
        case .spaySDKServiceNotAvailable: "ERROR_SPAY_SDK_SERVICE_NOT_AVAILABLE"
        case .deviceIntegrityCheckFail: "ERROR_DEVICE_INTEGRITY_CHECK_FAIL"
        case .spaySetupNotCompleted: "ERROR_SPAY_SETUP_NOT_COMPLETED"
        case .spayAppNeedToUpdate: "ERROR_SPAY_APP_NEED_TO_UPDATE"
        }
    }

    /// `ERROR_ALREADY_DONE (-5)`: how the sandbox's messages name it.
    public var description: String { "\(constantName) (\(rawValue))" }
}
