import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import ProvisioSandboxAPI

/// In-app provisioning as the cardholder's devices and Apple play it: the wallet's devices, a
/// device beginning an add (what PassKit hands the issuer app), Apple receiving the issuer's
/// answer and forwarding it to the network, what became of it, and Wallet's passes.
extension SandboxAPIHandler {
    func listDevices(_ input: Operations.ListDevices.Input) async throws -> Operations.ListDevices.Output {
        .ok(.init(body: .json(.init(devices: world.wallet.devices.map(Components.Schemas.Device.init)))))
    }

    func beginAdd(_ input: Operations.BeginAdd.Input) async throws -> Operations.BeginAdd.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let session = try await world.wallet.beginAdd(
            on: .init(input.path.kind), scheme: .init(body.scheme),
            primaryAccountIdentifier: body.primaryAccountIdentifier)
        return .created(.init(body: .json(.init(session))))
    }

    /// A red decision is thrown by Apple's service as `sandbox_network_declined` (422); the
    /// network has recorded the outcome before, so `GET /outcomes/{id}` still tells why.
    func submitAddSession(_ input: Operations.SubmitAddSession.Input) async throws -> Operations.SubmitAddSession.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let sessionID = input.path.id
        guard let session = await world.wallet.session(id: sessionID) else {
            throw ProvisioError(.sandboxSessionUnknown, "No add-card session has this id.")
        }
        let submission = try await world.apple.submit(
            sessionID: sessionID, response: ApplePayloadResponse(body), scheme: session.scheme)
        guard let outcome = await world.network.outcome(sessionID: submission.sessionID) else { throw Self.noOutcome() }
        return .ok(.init(body: .json(.init(submission, outcome: outcome))))
    }

    /// The cardholder accepts the card product's terms the add waits on; Wallet makes the pass.
    func acceptTerms(_ input: Operations.AcceptTerms.Input) async throws -> Operations.AcceptTerms.Output {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        // The document's bounds for a terms version (Provisio's `terms_version`).
        guard (1...32).contains(body.version.count) else {
            throw ProvisioError(.sandboxInvalidRequest, "The field 'version' must be 1 to 32 characters.")
        }
        let outcome = try await world.network.acceptTerms(sessionID: input.path.id, version: body.version)
        return .ok(.init(body: .json(.init(outcome))))
    }

    func getOutcome(_ input: Operations.GetOutcome.Input) async throws -> Operations.GetOutcome.Output {
        guard let outcome = await world.network.outcome(sessionID: input.path.id) else { throw Self.noOutcome() }
        return .ok(.init(body: .json(.init(outcome))))
    }

    func listPasses(_ input: Operations.ListPasses.Input) async throws -> Operations.ListPasses.Output {
        let kind = input.query.device.map(SandboxDeviceKind.init)
        var passes: [SandboxPass]
        if let card = input.query.primaryAccountIdentifier {
            passes = await world.wallet.passes(primaryAccountIdentifier: card, on: kind)
        } else {
            passes = await world.wallet.passes(on: kind)
        }
        // What that app's `PKPassLibrary` shows: a product's passes only in its associated apps.
        if let app = input.query.appIdentifier {
            guard (1...128).contains(app.count) else {
                throw ProvisioError(.sandboxInvalidRequest, "The query parameter 'app_identifier' must be 1 to 128 characters.")
            }
            passes = passes.filter { $0.isVisible(toApplication: app) }
        }
        return .ok(.init(body: .json(.init(passes: passes.map(Components.Schemas.Pass.init)))))
    }

    func getPass(_ input: Operations.GetPass.Input) async throws -> Operations.GetPass.Output {
        guard let pass = await world.wallet.pass(serialNumber: input.path.serial) else {
            throw ProvisioError(.sandboxPassUnknown, "No pass has this serial number.")
        }
        return .ok(.init(body: .json(.init(pass))))
    }

    func getAppLaunch(_ input: Operations.GetAppLaunch.Input) async throws -> Operations.GetAppLaunch.Output {
        let url = try await world.wallet.appLaunchURL(serialNumber: input.path.serial)
        return .ok(.init(body: .json(.init(url: url))))
    }

    private static func noOutcome() -> ProvisioError {
        ProvisioError(.sandboxOutcomeUnknown, "The network has no outcome for this add-card session.")
    }
}
