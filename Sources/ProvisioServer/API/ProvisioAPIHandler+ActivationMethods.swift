import ProvisioAPI
import ProvisioCore

/// The tenant's own activation methods (`/v1/settings/activation-methods`), which the card
/// network offers the cardholder on the yellow path.
extension ProvisioAPIHandler {
    func getActivationMethodSettings(_ input: Operations.GetActivationMethodSettings.Input) async throws
        -> Operations.GetActivationMethodSettings.Output
    {
        let settings = try await services.settings.activationMethods(tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(settings))))
    }

    /// A PUT: all three values together, a field left out is unset.
    func setActivationMethodSettings(_ input: Operations.SetActivationMethodSettings.Input) async throws
        -> Operations.SetActivationMethodSettings.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let settings = ActivationMethodSettings(
            customerServicePhoneNumber: body.customerServicePhoneNumber, automatedPhoneNumber: body.automatedPhoneNumber,
            appIdentifier: body.appIdentifier)
        let tenantID = try Self.tenantID()
        try await services.settings.setActivationMethods(settings, tenantID: tenantID)
        let stored = try await services.settings.activationMethods(tenantID: tenantID)
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(stored))))
    }
}

extension Components.Schemas.ActivationMethodSettings {
    init(_ settings: ProvisioServer.ActivationMethodSettings) {
        self.init(
            customerServicePhoneNumber: settings.customerServicePhoneNumber,
            automatedPhoneNumber: settings.automatedPhoneNumber, appIdentifier: settings.appIdentifier)
    }
}
