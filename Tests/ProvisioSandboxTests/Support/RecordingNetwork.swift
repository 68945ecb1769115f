import ProvisioCore
import ProvisioSandbox

/// A card network stand-in that records what Apple's service forwards, and can refuse.
actor RecordingNetwork: NetworkForwarding {
    private(set) var received: [ProvisioningSubmission] = []
    private let refusal: ProvisioError?

    init(refusal: ProvisioError? = nil) {
        self.refusal = refusal
    }

    func forward(_ submission: ProvisioningSubmission) async throws {
        received.append(submission)
        if let refusal { throw refusal }
    }
}
