import Foundation

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionauthorizationproviding
@available(iOS 14.0, *)
public protocol PKIssuerProvisioningExtensionAuthorizationProviding: NSObjectProtocol {
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionauthorizationproviding/completionhandler
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)? { get set }
}
