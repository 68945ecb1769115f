import Foundation

/// https://developer.apple.com/documentation/passkit/pksecureelementpass
@available(iOS 13.4, *)
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
