import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioMDESIssuerAPI

/// MDES's Issuer Outbound operations (`mdes-issuer-outbound-openapi.yaml`) through the generated
/// server code: each maps MDES's message onto `MDESIssuerService` and the result back. Refusals
/// are `MDESRefusal`s, which `MDESExchangeMiddleware` answers in the document's error shape; it
/// also checked the tenant and the `requestId` before any handler runs.
struct MDESIssuerHandler: APIProtocol {
    let service: MDESIssuerService

    func getAccountInformation(_ input: Operations.GetAccountInformation.Input) async throws
        -> Operations.GetAccountInformation.Output
    {
        // Transit only: refused without reading further, and the payload is never decrypted.
        throw MDESRefusal(.unsupportedOperation, "getAccountInformation is not supported by this issuer.")
    }

    /// `fundingAccountInfo.encryptedPayload` as the decrypter takes it.
    static func payload(_ wire: Components.Schemas.EncryptedPayload) -> MDESEncryptedPayload {
        MDESEncryptedPayload(
            encryptedData: wire.encryptedData.value1, encryptedKey: wire.encryptedKey.value1,
            publicKeyFingerprint: wire.publicKeyFingerprint.value1, oaepHashingAlgorithm: wire.oaepHashingAlgorithm?.rawValue,
            iv: wire.iv?.value1, algorithmCipherMode: wire.algorithmCipherMode?.rawValue, tag: wire.tag?.value1,
            aad: wire.aad?.value1)
    }

    /// A `tokenUniqueReference` Provisio stores as the token's network reference: present (its
    /// bounds were checked with the request, `MDESFieldRules`), and not itself a card number
    /// (MDES's references are letters and hex, so a digit run inside one is not refused: it would
    /// refuse real references).
    static func reference(_ value: String?, field: String = "tokenUniqueReference") throws -> String {
        guard let value else { throw MDESRefusal.missing(field) }
        guard (try? PrimaryAccountNumber(value)) == nil else { throw MDESRefusal.value(field) }
        return value
    }

    static func activationMethods(_ methods: [MDESActivationMethods.Method]) -> [Components.Schemas.ActivationMethod] {
        methods.compactMap { method in
            Components.Schemas.ActivationMethodType(rawValue: method.type).map { .init(_type: $0, value: method.value) }
        }
    }
}
