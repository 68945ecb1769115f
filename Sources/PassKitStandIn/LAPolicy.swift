import Foundation

/// https://developer.apple.com/documentation/localauthentication/lapolicy
///
/// Raw values from LAPublicDefines.h (`kLAPolicyDeviceOwnerAuthenticationWithBiometrics` 1,
/// `kLAPolicyDeviceOwnerAuthentication` 2).
@available(iOS 8.0, *)
public enum LAPolicy: Int, Sendable {
    /// https://developer.apple.com/documentation/localauthentication/lapolicy/deviceownerauthenticationwithbiometrics
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// https://developer.apple.com/documentation/localauthentication/lapolicy/deviceownerauthentication
    @available(iOS 9.0, *)
    case deviceOwnerAuthentication = 2
}
