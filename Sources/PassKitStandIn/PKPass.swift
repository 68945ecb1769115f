import Foundation

/// https://developer.apple.com/documentation/passkit/pkobject
open class PKObject: NSObject {}

/// https://developer.apple.com/documentation/passkit/pkpass
open class PKPass: PKObject {
    let record: PassKitStandInPass

    init(record: PassKitStandInPass) {
        self.record = record
    }

    /// https://developer.apple.com/documentation/passkit/pkpass/serialnumber
    open var serialNumber: String { record.serialNumber }
    /// https://developer.apple.com/documentation/passkit/pkpass/passtypeidentifier
    open var passTypeIdentifier: String { record.passTypeIdentifier }
    /// https://developer.apple.com/documentation/passkit/pkpass/isremotepass
    open var isRemotePass: Bool { record.isRemote }
    /// https://developer.apple.com/documentation/passkit/pkpass/devicename
    open var deviceName: String { record.deviceName }
    /// https://developer.apple.com/documentation/passkit/pkpass/secureelementpass
    open var secureElementPass: PKSecureElementPass? { self as? PKSecureElementPass }
}

/// https://developer.apple.com/documentation/passkit/pksecureelementpass
open class PKSecureElementPass: PKPass {

    /// https://developer.apple.com/documentation/passkit/pksecureelementpass/passactivationstate-swift.enum
    public enum PassActivationState: Int, Sendable {
        /// https://developer.apple.com/documentation/passkit/pksecureelementpass/passactivationstate-swift.enum/activated
        case activated = 0
        /// https://developer.apple.com/documentation/passkit/pksecureelementpass/passactivationstate-swift.enum/requiresactivation
        case requiresActivation = 1
        /// https://developer.apple.com/documentation/passkit/pksecureelementpass/passactivationstate-swift.enum/activating
        case activating = 2
        /// https://developer.apple.com/documentation/passkit/pksecureelementpass/passactivationstate-swift.enum/suspended
        case suspended = 3
        /// https://developer.apple.com/documentation/passkit/pksecureelementpass/passactivationstate-swift.enum/deactivated
        case deactivated = 4
    }

    /// https://developer.apple.com/documentation/passkit/pksecureelementpass/primaryaccountidentifier
    open var primaryAccountIdentifier: String { record.primaryAccountIdentifier }
    /// https://developer.apple.com/documentation/passkit/pksecureelementpass/primaryaccountnumbersuffix
    open var primaryAccountNumberSuffix: String { record.primaryAccountNumberSuffix }
    /// https://developer.apple.com/documentation/passkit/pksecureelementpass/deviceaccountidentifier
    open var deviceAccountIdentifier: String { record.deviceAccountIdentifier }
    /// https://developer.apple.com/documentation/passkit/pksecureelementpass/deviceaccountnumbersuffix
    open var deviceAccountNumberSuffix: String { record.deviceAccountNumberSuffix }
    /// https://developer.apple.com/documentation/passkit/pksecureelementpass/passactivationstate-swift.property
    open var passActivationState: PassActivationState {
        switch record.activationState {
        case .activated: .activated
        case .requiresActivation: .requiresActivation
        case .activating: .activating
        case .suspended: .suspended
        case .deactivated: .deactivated
        }
    }
}

/// https://developer.apple.com/documentation/passkit/pkpaymentpass
open class PKPaymentPass: PKSecureElementPass {}
