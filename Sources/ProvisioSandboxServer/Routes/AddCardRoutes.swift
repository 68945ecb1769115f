import Hummingbird
import ProvisioCore
import ProvisioSandbox

/// In-app provisioning as the cardholder's devices and Apple play it: the wallet's devices, a
/// device beginning an add (what PassKit hands the issuer app), Apple receiving the issuer's
/// answer and forwarding it to the network, and what became of it.
struct AddCardRoutes {
    let world: SandboxHTTPWorld

    func register(on group: RouterGroup<SandboxRequestContext>) {
        let wallet = world.wallet
        let apple = world.apple
        let network = world.network

        group.get("devices") { request, _ -> Response in
            _ = try SandboxRequestParameters.query(of: request, allowed: [])
            return try SandboxJSON.response(SandboxWire.DeviceList(wallet.devices))
        }

        group.post("devices/:kind/add-sessions") { request, context -> Response in
            let kind = try SandboxRequestParameters.deviceKind(try SandboxRequestParameters.path("kind", in: context))
            let body = try await SandboxJSON.decode(SandboxWire.BeginAddRequest.self, from: request, context: context)
            let session = try await wallet.beginAdd(
                on: kind, scheme: body.scheme, primaryAccountIdentifier: body.primaryAccountIdentifier)
            return try SandboxJSON.response(SandboxWire.AddSession(session), status: .created)
        }

        // A red decision is thrown by Apple's service as `sandbox_network_declined` (422); the
        // network has recorded the outcome before, so `GET /outcomes/{id}` still tells why.
        group.post("add-sessions/:id/submission") { request, context -> Response in
            let sessionID = try SandboxRequestParameters.path("id", in: context)
            let body = try await SandboxJSON.decode(SandboxWire.SubmissionRequest.self, from: request, context: context)
            guard let session = await wallet.session(id: sessionID) else {
                throw ProvisioError(.sandboxSessionUnknown, "No add-card session has this id.")
            }
            let submission = try await apple.submit(
                sessionID: sessionID, response: body.applePayloadResponse, scheme: session.scheme)
            guard let outcome = await network.outcome(sessionID: submission.sessionID) else {
                throw Self.noOutcome()
            }
            return try SandboxJSON.response(
                SandboxWire.Submission(sessionID: submission.sessionID, outcome: SandboxWire.Outcome(outcome)))
        }

        group.get("outcomes/:id") { _, context -> Response in
            let sessionID = try SandboxRequestParameters.path("id", in: context)
            guard let outcome = await network.outcome(sessionID: sessionID) else { throw Self.noOutcome() }
            return try SandboxJSON.response(SandboxWire.Outcome(outcome))
        }
    }

    private static func noOutcome() -> ProvisioError {
        ProvisioError(.sandboxOutcomeUnknown, "The network has no outcome for this add-card session.")
    }
}
