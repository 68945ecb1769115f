import Foundation

/// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration
@available(iOS 9.0, *)
open class PKAddPaymentPassRequestConfiguration: NSObject {
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/encryptionscheme
    public let encryptionScheme: PKEncryptionScheme
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/cardholdername
    open var cardholderName: String?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/primaryaccountsuffix
    open var primaryAccountSuffix: String?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/localizeddescription
    open var localizedDescription: String?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/primaryaccountidentifier
    open var primaryAccountIdentifier: String?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/paymentnetwork
    open var paymentNetwork: PKPaymentNetwork?
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/productidentifiers
    @available(iOS 12.3, *)
    open var productIdentifiers: Set<String> = []
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/style
    @available(iOS 12.0, *)
    open var style: PKAddPaymentPassStyle = .payment
    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/requiresfelicasecureelement
    @available(iOS 10.1, *)
    open var requiresFelicaSecureElement: Bool = false

    /// https://developer.apple.com/documentation/passkit/pkaddpaymentpassrequestconfiguration/init(encryptionscheme:)
    public init?(encryptionScheme: PKEncryptionScheme) {
        guard encryptionScheme == .ECC_V2 || encryptionScheme == .RSA_V2 else { return nil }
        self.encryptionScheme = encryptionScheme
        super.init()
    }

    /// Not part of Apple's API: the configuration Wallet hands the extension, rebuilt from the
    /// entry's (on a device it crosses from Wallet's process to the extension's as a copy).
    convenience init?(standInRequest request: PassKitStandInAddRequest) {
        self.init(encryptionScheme: PKEncryptionScheme(rawValue: request.encryptionScheme))
        cardholderName = request.cardholderName
        primaryAccountSuffix = request.primaryAccountSuffix
        localizedDescription = request.localizedDescription
        primaryAccountIdentifier = request.primaryAccountIdentifier
        paymentNetwork = request.paymentNetwork.map { PKPaymentNetwork(rawValue: $0) }
        requiresFelicaSecureElement = request.requiresFelicaSecureElement
    }

    /// Not part of Apple's API: what the device is told.
    var standInRequest: PassKitStandInAddRequest {
        PassKitStandInAddRequest(
            encryptionScheme: encryptionScheme.rawValue, cardholderName: cardholderName,
            primaryAccountSuffix: primaryAccountSuffix,
            localizedDescription: localizedDescription, primaryAccountIdentifier: primaryAccountIdentifier,
            paymentNetwork: paymentNetwork?.rawValue, requiresFelicaSecureElement: requiresFelicaSecureElement)
    }
}
