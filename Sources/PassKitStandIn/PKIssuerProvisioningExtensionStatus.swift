import Foundation

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionstatus
@available(iOS 14.0, *)
open class PKIssuerProvisioningExtensionStatus: NSObject {
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionstatus/requiresauthentication
    open var requiresAuthentication: Bool = false
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionstatus/passentriesavailable
    open var passEntriesAvailable: Bool = false
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionstatus/remotepassentriesavailable
    open var remotePassEntriesAvailable: Bool = false

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionstatus/init()
    public override init() {
        super.init()
    }
}
