import Foundation

// MARK: - Not part of Apple's API
//
// The device's biometry behind the stand-in's `LAContext`, scripted by tests: available (Face ID
// or Touch ID, evaluations succeed), unavailable (not enrolled, no passcode…), failing or
// cancelled with a given `LAError` code. Install one with
// `PassKitStandInEnvironment.$localAuthentication.withValue(_:operation:)`.

extension PassKitStandInEnvironment {
    /// The biometry `LAContext` instances created in this task see (not part of Apple's API);
    /// none installed: a device without biometry.
    @TaskLocal public static var localAuthentication: PassKitStandInLocalAuthentication?
}

/// A scripted device biometry (not part of Apple's API), recording every evaluation.
///
/// `@unchecked Sendable`: its only mutable state (`behaviour`, `reasons`) is read and written
/// under `lock` only.
public final class PassKitStandInLocalAuthentication: @unchecked Sendable {
    /// What the biometry does.
    public enum Behaviour: Sendable, Hashable {
        /// Enrolled: `canEvaluatePolicy` is true and every evaluation succeeds.
        case available(LABiometryType)
        /// `canEvaluatePolicy` is false with this `LAErrorDomain` code (kLAErrorBiometryNotAvailable
        /// -6, kLAErrorBiometryNotEnrolled -7, kLAErrorPasscodeNotSet -5, …); evaluations fail the same way.
        case unavailable(code: Int)
        /// Enrolled, but every evaluation fails with this code (authentication failed -1, user
        /// cancel -2, user fallback -3, system cancel -4, lockout -8, …).
        case failing(LABiometryType, code: Int)

        /// A device without biometry (kLAErrorBiometryNotAvailable).
        public static let noBiometry = Behaviour.unavailable(code: -6)

        var biometryType: LABiometryType {
            switch self {
            case .available(let type), .failing(let type, _): type
            case .unavailable: .none
            }
        }

        var unavailableCode: Int? {
            if case .unavailable(let code) = self { return code }
            return nil
        }
    }

    private let lock = NSLock()
    private var current: Behaviour
    private var reasons: [String] = []

    public init(_ behaviour: Behaviour) {
        self.current = behaviour
    }

    /// What the biometry does from now on.
    public var behaviour: Behaviour {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    /// The localized reason of every evaluation so far (one per prompt the cardholder saw).
    public var evaluations: [String] { lock.withLock { reasons } }

    func evaluate(localizedReason: String) async throws {
        let behaviour = lock.withLock {
            reasons.append(localizedReason)
            return current
        }
        switch behaviour {
        case .available: return
        case .unavailable(let code), .failing(_, let code): throw NSError(domain: LAErrorDomain, code: code)
        }
    }
}
