import Foundation

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionpaymentpassentry
@available(iOS 14.0, *)
open class PKIssuerProvisioningExtensionPaymentPassEntry: PKIssuerProvisioningExtensionPassEntry {
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionpaymentpassentry/addrequestconfiguration
    public let addRequestConfiguration: PKAddPaymentPassRequestConfiguration

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionpaymentpassentry/init(identifier:title:art:addrequestconfiguration:)
    public init?(
        identifier: String, title: String, art: CGImage,
        addRequestConfiguration configuration: PKAddPaymentPassRequestConfiguration
    ) {
        guard !identifier.isEmpty else { return nil }
        self.addRequestConfiguration = configuration
        super.init(identifier: identifier, title: title, art: art)
    }
}
