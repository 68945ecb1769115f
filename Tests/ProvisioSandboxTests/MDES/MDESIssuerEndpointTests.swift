import Foundation
import ProvisioCore
import ProvisioCrypto
import Testing

@testable import ProvisioSandbox

/// The issuer's registered MDES base URL read into the generated client's server and tenant, and
/// the network's words for MDES's activation methods.
@Suite struct MDESIssuerEndpointTests {
    @Test func readsTheServerAndTheTenant() throws {
        let full = try MDESIssuerEndpoint(baseURL: "https://issuer.example:8443/mdes/ten_1/issuerServices/1/0")
        #expect(full.serverURL.absoluteString == "https://issuer.example:8443" && full.tenantID == "ten_1")
        let short = try MDESIssuerEndpoint(baseURL: "https://issuer.example/api/mdes/ten_2")
        #expect(short.serverURL.absoluteString == "https://issuer.example/api" && short.tenantID == "ten_2")
    }

    @Test(arguments: [
        "http://issuer.example/mdes/ten_1", "https://issuer.example/ten_1", "https://issuer.example/mdes/",
        "https://issuer.example/mdes/ten_1/other", "https://issuer.example/mdes/ten_1?x=1", "not a url",
    ])
    func refusesWhatIsNotAnMDESBaseURL(_ url: String) {
        #expect(throws: ProvisioError.self) { try MDESIssuerEndpoint(baseURL: url) }
    }

    @Test func activationMethodsInTheNetworksWords() {
        #expect(MDESActivationMethodWords.word(for: "TEXT_TO_CARDHOLDER_NUMBER") == "otp_sms")
        #expect(MDESActivationMethodWords.word(for: "CARDHOLDER_TO_USE_MOBILE_APP") == "app_to_app")
        #expect(MDESActivationMethodWords.word(for: "CARDHOLDER_TO_CALL_MANNED_NUMBER") == "customer_service")
        #expect(MDESActivationMethodWords.channel(for: "EMAIL_TO_CARDHOLDER_ADDRESS") == "email")
    }

    @Test func tokenReferencesHaveMDESsLength() async throws {
        let link = try Self.connection()
        let reference = link.makeTokenReference()
        #expect(reference.count == 48 && reference.hasPrefix("DSBXMC") && reference != link.makeTokenReference())
        await link.shutdown()
    }

    static func connection() throws -> SandboxMDESIssuerConnection {
        let pki = try SandboxMDESPKI.generate(now: Date())
        let key = try MDESIssuerKey.generate(keySizeInBits: 2048)
        return try SandboxMDESIssuerConnection(
            endpoint: try MDESIssuerEndpoint(baseURL: "https://127.0.0.1:1/mdes/ten_1"),
            identity: try MDESTLSIdentity(
                certificateChainPEM: pki.client.certificatePEM, privateKeyPEM: pki.client.privateKeyPEM, serverCAPEM: pki.caPEM),
            encryptor: try MDESPayloadEncryptor(publicKeyPEM: try key.publicKeyPEM))
    }
}
