import Foundation

/// https://developer.apple.com/documentation/localauthentication/laerrordomain
@available(iOS 8.3, *)
public let LAErrorDomain: String = "com.apple.LocalAuthentication"

/// https://developer.apple.com/documentation/localauthentication/laerror-swift.struct
///
/// LocalAuthentication reports failures as errors in `LAErrorDomain` whose codes are
/// `LAError.Code` raw values (LAError.h); the stand-in's `LAContext` throws them as `NSError`.
@available(iOS 8.0, *)
public struct LAError: Error, Sendable {
    /// https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code
    ///
    /// Only the cases ProvisioKit and its tests use (raw values from LAPublicDefines.h).
    public enum Code: Int, Sendable {
        /// https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code/authenticationfailed
        case authenticationFailed = -1
        /// https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code/usercancel
        case userCancel = -2
        /// https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code/userfallback
        case userFallback = -3
        /// https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code/systemcancel
        case systemCancel = -4
        /// https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code/appcancel
        @available(iOS 9.0, *)
        case appCancel = -9
    }
}
