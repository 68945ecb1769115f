import Foundation

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionstatus
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

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionpassentry
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

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionpaymentpassentry
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

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler
open class PKIssuerProvisioningExtensionHandler: NSObject {
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/init()
    public override init() {
        super.init()
    }

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/status(completion:)
    open func status(completion: @escaping @Sendable (PKIssuerProvisioningExtensionStatus) -> Void) {
        completion(PKIssuerProvisioningExtensionStatus())
    }

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/passentries(completion:)
    open func passEntries(completion: @escaping @Sendable ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        completion([])
    }

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/remotepassentries(completion:)
    open func remotePassEntries(completion: @escaping @Sendable ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
        completion([])
    }

    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionhandler/generateaddpaymentpassrequestforpassentrywithidentifier(_:configuration:certificatechain:nonce:noncesignature:completionhandler:)
    open func generateAddPaymentPassRequestForPassEntryWithIdentifier(
        _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration, certificateChain certificates: [Data],
        nonce: Data, nonceSignature: Data, completionHandler completion: @escaping @Sendable (PKAddPaymentPassRequest?) -> Void
    ) {
        completion(nil)
    }
}

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionauthorizationresult
public enum PKIssuerProvisioningExtensionAuthorizationResult: Int, Sendable {
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionauthorizationresult/canceled
    case canceled = 0
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionauthorizationresult/authorized
    case authorized = 1
}

/// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionauthorizationproviding
public protocol PKIssuerProvisioningExtensionAuthorizationProviding: NSObjectProtocol {
    /// https://developer.apple.com/documentation/passkit/pkissuerprovisioningextensionauthorizationproviding/completionhandler
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)? { get set }
}
