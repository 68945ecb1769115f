import Foundation

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionpassentry
///
/// No public initializer: Apple marks `init` unavailable; entries are made through a subclass.
@available(iOS 14.0, *)
open class PKIssuerProvisioningExtensionPassEntry: NSObject {
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionpassentry/identifier
    public let identifier: String
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionpassentry/title
    public let title: String
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionpassentry/art
    public let art: CGImage

    init(identifier: String, title: String, art: CGImage) {
        self.identifier = identifier
        self.title = title
        self.art = art
        super.init()
    }
}
