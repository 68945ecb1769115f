import ProvisioSandbox
import ProvisioSandboxAPI

extension Components.Schemas.Submission {
    /// What Apple forwarded, and what the network made of it.
    package init(_ submission: ProvisioningSubmission, outcome: NetworkProvisioningOutcome) {
        self.init(sessionId: submission.sessionID, outcome: .init(outcome))
    }
}
