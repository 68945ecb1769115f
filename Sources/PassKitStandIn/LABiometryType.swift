import Foundation

/// https://developer.apple.com/documentation/localauthentication/labiometrytype
@available(iOS 11.0, *)
public enum LABiometryType: Int, Sendable {
    /// https://developer.apple.com/documentation/localauthentication/labiometrytype/none
    @available(iOS 11.2, *)
    case none = 0
    /// https://developer.apple.com/documentation/localauthentication/labiometrytype/touchid
    case touchID = 1
    /// https://developer.apple.com/documentation/localauthentication/labiometrytype/faceid
    case faceID = 2
}
