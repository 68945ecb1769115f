import ProvisioAPI
import ProvisioCore
import ProvisioOpenPGP

/// The tenant's keys for Google's opaque payment card (`/v1/settings/google-pay`): the public
/// half of its issuer signing key, and Google's encryption keys. No secret ever comes back.
extension ProvisioAPIHandler {
    func getGooglePaySettings(_ input: Operations.GetGooglePaySettings.Input) async throws
        -> Operations.GetGooglePaySettings.Output
    {
        // A read-only key changes nothing, so it does not make the first issuer key either.
        var readOnly = false
        if case .apiKey(let key) = try RequestScope.require().requirePrincipal() { readOnly = key.scope == .readOnly }
        let settings = try await services.googlePay.settings(tenantID: try Self.tenantID(), makingKey: !readOnly)
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(settings))))
    }

    func setGooglePaySettings(_ input: Operations.SetGooglePaySettings.Input) async throws
        -> Operations.SetGooglePaySettings.Output
    {
        guard case .json(let body) = input.body else { throw Self.unreadableBody() }
        let settings = try await services.googlePay.setGoogleKeys(body.googleEncryptionKeys, tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(settings))))
    }

    func rotateGooglePaySigningKey(_ input: Operations.RotateGooglePaySigningKey.Input) async throws
        -> Operations.RotateGooglePaySigningKey.Output
    {
        let settings = try await services.googlePay.rotateSigningKey(tenantID: try Self.tenantID())
        return .ok(.init(headers: .init(xRequestId: try Self.requestID()), body: .json(.init(settings))))
    }
}

extension Components.Schemas.GooglePaySettings {
    init(_ settings: GooglePayKeyService.Settings) {
        let signing = settings.signingKey
        self.init(
            issuerSigningKey: .init(
                armored: signing.publicKeyArmored, fingerprint: signing.fingerprint, createdAt: signing.createdAt,
                expiresAt: signing.expiresAt),
            googleEncryptionKeys: settings.googleKeys.map { key in
                .init(fingerprint: key.fingerprint, expiresAt: key.expiration, userIds: key.userIDs, armored: key.armored)
            })
    }
}
