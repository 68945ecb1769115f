import Crypto
import Foundation
import ProvisioCore
import ProvisioCrypto
import ProvisioSandbox
import Testing

/// One user's wallet and Apple's service in front of it, on a test clock, with known
/// secure-element keys so tests can sign as a device would (or as an attacker would).
struct Harness {
    let clock = TestClock(SandboxFixtures.start)
    let phoneKey = P256.Signing.PrivateKey()
    let watchKey = P256.Signing.PrivateKey()
    let network: RecordingNetwork
    let wallet: SandboxWallet
    let service: SandboxAppleProvisioningService
    let issuer = Issuer()

    init(network: RecordingNetwork = RecordingNetwork()) {
        self.network = network
        self.wallet = SandboxWallet(
            certificateAuthority: SandboxFixtures.ca, clock: clock,
            phoneSecureElement: SandboxSecureElement(privateKey: phoneKey),
            watchSecureElement: SandboxSecureElement(privateKey: watchKey))
        self.service = SandboxAppleProvisioningService(wallet: wallet, network: network)
    }

    func key(of kind: SandboxDeviceKind) -> P256.Signing.PrivateKey {
        kind == .phone ? phoneKey : watchKey
    }

    /// Submits and returns the error code, or nil when the submission was accepted.
    func submissionError(
        _ session: AddPaymentPassSession, _ response: ApplePayloadResponse, scheme: EncryptionScheme? = nil
    ) async -> ProvisioError? {
        do {
            _ = try await service.submit(sessionID: session.id, response: response, scheme: scheme ?? session.scheme)
            return nil
        } catch let error as ProvisioError {
            return error
        } catch {
            Issue.record("Expected a ProvisioError, got \(error)")
            return nil
        }
    }
}
