import Foundation

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionauthorizationresult
@available(iOS 14.0, *)
public enum PKIssuerProvisioningExtensionAuthorizationResult: Int, Sendable {
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionauthorizationresult/canceled
    case canceled = 0
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionauthorizationresult/authorized
    case authorized = 1
}
