import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioNetworkConnector

/// Finds the connector for a tenant: its own network connection when it set one, else the
/// server's (`--network-url`, the sandbox in development), else a clear 503.
///
/// A tenant's URL is the tenant's choice, so its calls go through the outbound policy like
/// webhooks; the server's default is the operator's own configuration and may be internal.
public struct NetworkConnectorResolver: Sendable {
    let store: any SettingsStore
    let vault: PANVault
    let serverDefault: NetworkEndpoint?
    /// The guarded client for tenants' URLs (also checks them when they are set).
    let outbound: OutboundHTTPClient
    let makeConnector: @Sendable (NetworkEndpoint, _ operatorConfigured: Bool, _ tenantID: String) -> any NetworkConnector

    public init(
        store: any SettingsStore, vault: PANVault, serverDefault: NetworkEndpoint?, outbound: OutboundHTTPClient,
        clock: any TimeSource = SystemTimeSource(), fundingAccountEncrypter: JWEEncrypter? = nil,
        makeConnector: (@Sendable (NetworkEndpoint, _ operatorConfigured: Bool, _ tenantID: String) -> any NetworkConnector)? =
            nil
    ) {
        self.store = store
        self.vault = vault
        self.serverDefault = serverDefault
        self.outbound = outbound
        let operatorClient = OutboundHTTPClient(policy: outbound.policy.trustingEveryAddress(), resolver: outbound.resolver)
        self.makeConnector =
            makeConnector ?? { endpoint, operatorConfigured, tenantID in
                // The operator's connector is one host for every tenant; a tenant's own counts
                // against its share of the outbound pool.
                Self.connector(
                    for: endpoint, client: operatorConfigured ? operatorClient : outbound.owned(by: tenantID), clock: clock,
                    auditInfo: Self.auditInfo(AuditContext.current.actor, tenantID: tenantID),
                    fundingAccountEncrypter: fundingAccountEncrypter)
            }
    }

    /// The endpoint's dialect decides the connector; every dialect's calls go through the
    /// guarded outbound client. `fundingAccountEncrypter` seals a replaced card's number to the
    /// network's key (the one opaque payment cards go to) in the Provisio dialect.
    static func connector(
        for endpoint: NetworkEndpoint, client: OutboundHTTPClient, clock: any TimeSource, auditInfo: MDESAuditInfo,
        fundingAccountEncrypter: JWEEncrypter? = nil
    ) -> any NetworkConnector {
        switch (endpoint.dialect, endpoint.oauth) {
        case (.mdes, let oauth?):
            return MDESDialectConnector(
                customerServiceURL: endpoint.url, signer: oauth.signingKey.signer(consumerKey: oauth.consumerKey),
                auditInfo: auditInfo, mastercardEncryptionCertificate: endpoint.mastercardEncryptionCertificate,
                transport: OutboundTransport(
                    client: client, timeout: .seconds(10), maximumAnswerBytes: MDESDialectConnector.maximumAnswerBytes),
                clock: clock)
        case (.provisio, _), (.mdes, nil):
            let maximumAnswerBytes = ProvisioDialectConnector.maximumAnswerBytes
            return ProvisioDialectConnector(
                baseURL: endpoint.url, apiKey: endpoint.apiKey,
                transport: OutboundTransport(client: client, timeout: .seconds(10), maximumAnswerBytes: maximumAnswerBytes),
                fundingAccountEncrypter: fundingAccountEncrypter)
        }
    }

    /// MDES's `AuditInfo` for whoever acts in this request: the operator or API key by id, and
    /// the tenant. Never a secret: ids only.
    static func auditInfo(_ actor: AuditActor, tenantID: String) -> MDESAuditInfo {
        let name: String
        switch actor.kind {
        case .apiKey: name = "Provisio API key"
        case .operator: name = "Provisio console operator"
        case .commandLine: name = "Provisio command line"
        case .network, .mobileSession, .provisionToken, .system: name = "Provisio"
        }
        return MDESAuditInfo(userID: actor.id ?? actor.kind.rawValue, userName: name, organization: "Provisio tenant \(tenantID)")
    }

    /// Which endpoint applies and where it came from (`tenant` or `server`).
    public func endpoint(tenantID: String) async throws -> (NetworkEndpoint, source: String)? {
        if let own = try await store.networkConnection(tenantID: tenantID) {
            if own.dialect == NetworkDialect.mdes.rawValue {
                guard let consumerKey = own.oauthConsumerKey, let sealed = own.oauthSigningKeyVaultRecord else {
                    throw ProvisioError(
                        .networkConnectorNotConfigured, "The tenant's MDES connection lacks its OAuth credentials.")
                }
                let pem = try vault.openSecret(
                    VaultRecord(serialized: sealed), context: NetworkConnectionRecord.signingKeyVaultContext(tenantID: tenantID))
                // Checked when it was set; one that no longer reads counts as not set, so only a
                // reissue is refused, with a message naming the setting.
                let certificate = own.mastercardEncryptionCertificatePEM.flatMap { try? MastercardEncryptionCertificate(pem: $0) }
                let endpoint = try NetworkEndpoint(
                    mdesCustomerServiceURL: own.url, consumerKey: consumerKey,
                    signingKey: try OAuth1SigningKey(pem: String(decoding: pem, as: UTF8.self)),
                    mastercardEncryptionCertificate: certificate)
                return (endpoint, "tenant")
            }
            guard let sealed = own.apiKeyVaultRecord else {
                throw ProvisioError(.networkConnectorNotConfigured, "The tenant's network connection lacks its API key.")
            }
            let key = try vault.openSecret(
                VaultRecord(serialized: sealed), context: NetworkConnectionRecord.vaultContext(tenantID: tenantID))
            return (try NetworkEndpoint(url: own.url, apiKey: String(decoding: key, as: UTF8.self)), "tenant")
        }
        return serverDefault.map { ($0, "server") }
    }

    public func connector(tenantID: String) async throws -> any NetworkConnector {
        guard let (endpoint, source) = try await endpoint(tenantID: tenantID) else {
            throw ProvisioError(
                .networkConnectorNotConfigured,
                "No card network is configured: PUT /v1/settings/network, or start the server with --network-url.")
        }
        return makeConnector(endpoint, source == "server", tenantID)
    }
}
