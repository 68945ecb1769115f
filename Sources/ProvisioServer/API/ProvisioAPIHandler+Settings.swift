import ProvisioAPI
import ProvisioCore

/// The tenant's settings for the issuer's backend: decisioning and the card network.
extension ProvisioAPIHandler {
    func getDecisioningSettings(_ input: Operations.GetDecisioningSettings.Input) async throws
        -> Operations.GetDecisioningSettings.Output
    {
        let settings = try await services.settings.decisioning(tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(settings))))
    }

    func updateDecisioningSettings(_ input: Operations.UpdateDecisioningSettings.Input) async throws
        -> Operations.UpdateDecisioningSettings.Output
    {
        guard case .json(let change) = input.body else { throw Self.unreadableBody() }
        let updated = try await services.settings.updateDecisioning(tenantID: try Self.tenantID()) { settings in
            if let value = change.minimumDeviceScore { settings.rules.minimumDeviceScore = value }
            if let value = change.minimumAccountScore { settings.rules.minimumAccountScore = value }
            if let value = change.declineAtOrBelowScore { settings.rules.declineAtOrBelowScore = value }
            if let value = change.followWalletYellow { settings.rules.followWalletYellow = value }
            if let value = change.followWalletRed { settings.rules.followWalletRed = value }
            if let value = change.webhookTimeoutMs { settings.webhookTimeoutMilliseconds = value }
            if let value = change.webhookDefaultDecision {
                switch value {
                case .approve: settings.webhookDefaultDecision = .approve
                case .requireVerification: settings.webhookDefaultDecision = .requireVerification
                case .decline: settings.webhookDefaultDecision = .decline
                }
            }
        }
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(updated))))
    }

    func getNetworkSettings(_ input: Operations.GetNetworkSettings.Input) async throws
        -> Operations.GetNetworkSettings.Output
    {
        .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(try await networkSettings())))
    }

    func setNetworkSettings(_ input: Operations.SetNetworkSettings.Input) async throws
        -> Operations.SetNetworkSettings.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        // The outbound policy speaks first: its codes say what is wrong with the address.
        try services.settings.validateNetworkURL(body.url)
        try await services.settings.setNetwork(
            try NetworkEndpoint(url: body.url, apiKey: body.apiKey), tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(try await networkSettings())))
    }

    func clearNetworkSettings(_ input: Operations.ClearNetworkSettings.Input) async throws
        -> Operations.ClearNetworkSettings.Output
    {
        try await services.settings.setNetwork(nil, tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(try await networkSettings())))
    }

    /// The connection in force; the API key never comes back.
    private func networkSettings() async throws -> Components.Schemas.NetworkSettings {
        let current = try await services.settings.network(tenantID: try Self.tenantID())
        let source = current.flatMap { Components.Schemas.NetworkSettings.SourcePayload(rawValue: $0.source) } ?? .none
        return Components.Schemas.NetworkSettings(url: current?.url, source: source)
    }
}

extension Components.Schemas.DecisioningSettings {
    init(_ settings: DecisioningSettings) {
        self.init(
            minimumDeviceScore: settings.rules.minimumDeviceScore, minimumAccountScore: settings.rules.minimumAccountScore,
            declineAtOrBelowScore: settings.rules.declineAtOrBelowScore,
            followWalletYellow: settings.rules.followWalletYellow, followWalletRed: settings.rules.followWalletRed,
            webhookTimeoutMs: settings.webhookTimeoutMilliseconds,
            webhookDefaultDecision: {
                switch settings.webhookDefaultDecision {
                case .approve: .approve
                case .requireVerification: .requireVerification
                case .decline: .decline
                }
            }())
    }
}
