import Foundation
import ProvisioCore

#if canImport(PassKit)
    import PassKit
#else
    import PassKitStandIn
#endif

/// Core's values ↔ PassKit's types. Mapping only.
public enum PassKitMapping {
    /// The PassKit configuration for Core's request configuration; nil when PassKit refuses the scheme.
    public static func requestConfiguration(_ configuration: AddPassRequestConfiguration)
        -> PKAddPaymentPassRequestConfiguration?
    {
        guard
            let result = PKAddPaymentPassRequestConfiguration(encryptionScheme: encryptionScheme(configuration.encryptionScheme))
        else { return nil }
        result.cardholderName = configuration.cardholderName
        result.primaryAccountSuffix = configuration.primaryAccountSuffix
        result.localizedDescription = configuration.localizedDescription
        result.primaryAccountIdentifier = configuration.primaryAccountIdentifier
        result.paymentNetwork = configuration.paymentNetwork.flatMap(paymentNetwork)
        return result
    }

    public static func encryptionScheme(_ scheme: EncryptionScheme) -> PKEncryptionScheme {
        switch scheme {
        case .eccV2: .ECC_V2
        case .rsaV2: .RSA_V2
        }
    }

    public static func encryptionScheme(_ scheme: PKEncryptionScheme) -> EncryptionScheme? {
        EncryptionScheme(rawValue: scheme.rawValue)
    }

    /// PassKit's network for Core's; nil for `.unknown`.
    public static func paymentNetwork(_ network: PaymentNetwork) -> PKPaymentNetwork? {
        switch network {
        case .visa: .visa
        case .mastercard: .masterCard
        case .amex: .amex
        case .discover: .discover
        case .jcb: .JCB
        case .unionPay: .chinaUnionPay
        case .maestro: .maestro
        case .unknown: nil
        }
    }

    /// Core's state for PassKit's; nil for a state this SDK does not know.
    public static func activationState(_ state: PKSecureElementPass.PassActivationState) -> PassActivationState? {
        switch state {
        case .activated: .activated
        case .requiresActivation: .requiresActivation
        case .activating: .activating
        case .suspended: .suspended
        case .deactivated: .deactivated
        @unknown default: nil
        }
    }

    /// Core's snapshot of a secure-element pass; the device is the Watch for remote passes.
    public static func snapshot(_ pass: PKSecureElementPass) -> WalletPassSnapshot {
        WalletPassSnapshot(
            serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier,
            primaryAccountIdentifier: pass.primaryAccountIdentifier, primaryAccountNumberSuffix: pass.primaryAccountNumberSuffix,
            deviceAccountIdentifier: pass.deviceAccountIdentifier, activationState: activationState(pass.passActivationState),
            device: pass.isRemotePass ? .watch : .phone)
    }
}
