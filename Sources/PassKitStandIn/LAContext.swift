import Foundation

/// https://developer.apple.com/documentation/localauthentication/lacontext
///
/// Backed by the installed `PassKitStandInLocalAuthentication` (captured at init), which scripts
/// what the device's biometry does.
@available(iOS 8.0, *)
open class LAContext: NSObject {
    /// Not part of Apple's API: the biometry this context evaluates against.
    let device: PassKitStandInLocalAuthentication
    private let state = NSLock()
    private var checkedBiometryType: LABiometryType = .none

    /// NSObject's initializer (LocalAuthentication declares none of its own); the stand-in
    /// captures its device.
    public override init() {
        self.device = PassKitStandInEnvironment.localAuthentication ?? PassKitStandInLocalAuthentication(.noBiometry)
        super.init()
    }

    /// https://developer.apple.com/documentation/localauthentication/lacontext/canevaluatepolicy(_:error:)
    @available(iOS 8.0, *)
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
        let behaviour = device.behaviour
        // Apple: biometryType is set by this call, whatever it returns.
        state.withLock { checkedBiometryType = behaviour.biometryType }
        guard let code = behaviour.unavailableCode else {
            error?.pointee = nil
            return true
        }
        error?.pointee = NSError(domain: LAErrorDomain, code: code)
        return false
    }

    /// https://developer.apple.com/documentation/localauthentication/lacontext/evaluatepolicy(_:localizedreason:reply:)
    @available(iOS 8.0, *)
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        try await device.evaluate(localizedReason: localizedReason)
        return true
    }

    /// https://developer.apple.com/documentation/localauthentication/lacontext/biometrytype
    @available(iOS 11.0, *)
    open var biometryType: LABiometryType { state.withLock { checkedBiometryType } }
}

/// https://developer.apple.com/documentation/foundation/nserrorpointer
///
/// Foundation's on Apple platforms (an `AutoreleasingUnsafeMutablePointer`, which exists only with
/// the Objective-C runtime); swift-corelibs-foundation has none. Callers pass `&error` to either.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
