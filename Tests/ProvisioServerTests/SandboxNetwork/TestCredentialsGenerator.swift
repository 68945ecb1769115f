import Foundation
import ProvisioCore
import ProvisioOpenPGP
import ProvisioSandbox
import Testing

/// The issuer's app and its backend as a UPP `PaymentCredentialsGenerator`: the TSP OPC from
/// Provisio's Google Pay route, and the Google OPC sealed as an issuer's backend does — signed
/// with `signer`, encrypted to `googleKeys`, naming the session Google gave (or `sessionID`).
struct TestCredentialsGenerator: PaymentCredentialsGenerator {
    var harness: SandboxNetworkHarness
    var signer: OpenPGPSecretKey
    var googleKeys: [OpenPGPPublicKey]
    var pan = SandboxNetworkHarness.pan
    /// Names another session than Google's.
    var sessionID: String?
    /// Answers no Google OPC.
    var withGoogleOPC = true

    init(_ harness: SandboxNetworkHarness, keys: GoogleTestKeys) {
        self.harness = harness
        self.signer = keys.issuer
        self.googleKeys = [keys.google.publicKey]
    }

    func generate(_ request: GeneratePaymentCredentialsRequest) async throws -> GeneratedPaymentCredentials {
        let push = try await harness.googlePushData()
        guard withGoogleOPC else {
            return GeneratedPaymentCredentials(opaquePaymentCard: push.opaquePaymentCard, googleOpaquePaymentCard: nil)
        }
        let card = try GoogleOpaquePaymentCard(
            serverSessionID: sessionID ?? request.serverSessionID, accountNumber: pan, expiryMonth: 12, expiryYear: 2030)
        let sealed = try card.seal(issuer: signer, googleKeys: googleKeys, at: harness.server.clock.now())
        return GeneratedPaymentCredentials(opaquePaymentCard: push.opaquePaymentCard, googleOpaquePaymentCard: sealed)
    }
}

extension SandboxNetworkHarness {
    /// Google Wallet with the sandbox Google's key, on the server's clock, its keys exchanged
    /// with the tenant at Provisio, and the test issuer's signing key registered too.
    func googleWallet(_ keys: GoogleTestKeys) async throws -> SandboxGoogleWallet {
        let google = SandboxGoogleWallet(tokenService: network, googleKey: keys.google, clock: server.clock)
        try await exchangeGooglePayKeys(google)
        try await google.registerIssuerKey(keys.issuer.publicKey)
        return google
    }

    /// The app's UPP push for the card (Visa, last digits 1111) with `generator`.
    func pushUPP(
        into google: SandboxGoogleWallet, _ generator: any PaymentCredentialsGenerator, isBounceProvisioned: Bool = false
    ) async throws -> GooglePushTokenizeResult {
        try await google.pushTokenize(
            network: .visa, tokenServiceProvider: .visa, displayName: "Visa •••• 1111", lastDigits: "1111",
            address: GoogleUserAddress(name: "Jane Appleseed", countryCode: "US"), generator: generator,
            isBounceProvisioned: isBounceProvisioned)
    }

    /// The two-step form: a session for the card.
    func beginUPP(into google: SandboxGoogleWallet, lastDigits: String = "1111") async throws -> GooglePushTokenizeSession {
        try await google.beginPushTokenize(
            network: .visa, tokenServiceProvider: .visa, displayName: "Visa •••• 1111", lastDigits: lastDigits)
    }

    /// No card number in anything Google Wallet holds or answered.
    func expectNoPANInGoogle(_ google: SandboxGoogleWallet, _ answers: [any Sendable] = []) async {
        var seen = answers.map { "\($0)" }
        seen.append("\(await google.listTokens())")
        seen.append("\(await google.cardsOnFile())")
        seen.append("\(await google.openSessions())")
        for text in seen { #expect(!text.contains(Self.pan), "PAN in \(text.prefix(80))") }
    }
}
