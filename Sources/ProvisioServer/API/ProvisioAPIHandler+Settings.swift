import ProvisioAPI
import ProvisioCore
import ProvisioCrypto
import ProvisioNetworkConnector

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
        try await services.settings.setNetwork(try Self.networkEndpoint(body, services.settings), tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(try await networkSettings())))
    }

    /// The request as an endpoint of its dialect: each dialect's fields present, the other's
    /// absent. The outbound policy speaks first: its codes say what is wrong with the address.
    static func networkEndpoint(_ body: Components.Schemas.NetworkSettingsRequest, _ settings: SettingsService) throws
        -> NetworkEndpoint
    {
        switch body.dialect ?? .provisio {
        case .provisio:
            guard body.customerServiceUrl == nil, body.oauthConsumerKey == nil, body.oauthSigningKeyPem == nil,
                body.mastercardEncryptionCertificatePem == nil
            else {
                throw ProvisioError(
                    .invalidParameter,
                    "customer_service_url, oauth_consumer_key, oauth_signing_key_pem and mastercard_encryption_certificate_pem "
                        + "belong to the mdes dialect.")
            }
            guard let url = body.url, let apiKey = body.apiKey else {
                throw ProvisioError(.invalidParameter, "The provisio dialect needs url and api_key.")
            }
            try settings.validateNetworkURL(url)
            return try NetworkEndpoint(url: url, apiKey: apiKey)
        case .mdes:
            guard body.url == nil, body.apiKey == nil else {
                throw ProvisioError(.invalidParameter, "url and api_key belong to the provisio dialect.")
            }
            guard let url = body.customerServiceUrl, let consumerKey = body.oauthConsumerKey, let pem = body.oauthSigningKeyPem
            else {
                throw ProvisioError(
                    .invalidParameter,
                    "The mdes dialect needs customer_service_url, oauth_consumer_key and oauth_signing_key_pem.")
            }
            try settings.validateNetworkURL(url, field: "customer_service_url")
            let signingKey = try OAuth1SigningKey(pem: pem)
            let certificate = try body.mastercardEncryptionCertificatePem.map { try settings.mastercardCertificate(pem: $0) }
            return try NetworkEndpoint(
                mdesCustomerServiceURL: url, consumerKey: consumerKey, signingKey: signingKey,
                mastercardEncryptionCertificate: certificate)
        }
    }

    func clearNetworkSettings(_ input: Operations.ClearNetworkSettings.Input) async throws
        -> Operations.ClearNetworkSettings.Output
    {
        try await services.settings.setNetwork(nil, tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(try await networkSettings())))
    }

    /// The connection in force; neither the API key nor the signing key ever comes back, only
    /// whether a signing key is set and its public key's fingerprint, and of Mastercard's
    /// certificate its key's fingerprint (what Provisio sends as `PublicKeyFingerprint`).
    private func networkSettings() async throws -> Components.Schemas.NetworkSettings {
        guard let (endpoint, source) = try await services.settings.network(tenantID: try Self.tenantID()) else {
            return Components.Schemas.NetworkSettings(source: .none)
        }
        let origin = Components.Schemas.NetworkSettings.SourcePayload(rawValue: source) ?? .none
        guard endpoint.dialect == .mdes else {
            return Components.Schemas.NetworkSettings(url: endpoint.url, source: origin, dialect: .provisio)
        }
        return Components.Schemas.NetworkSettings(
            source: origin, dialect: .mdes, customerServiceUrl: endpoint.url, oauthConsumerKey: endpoint.oauth?.consumerKey,
            oauthSigningKeySet: endpoint.oauth != nil,
            oauthSigningKeyFingerprint: endpoint.oauth?.signingKey.publicKeyFingerprint,
            mastercardEncryptionKeyFingerprint: endpoint.mastercardEncryptionCertificate?.publicKeyFingerprint)
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
