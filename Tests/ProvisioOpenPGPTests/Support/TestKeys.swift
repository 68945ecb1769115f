import Foundation
import ProvisioOpenPGP

/// Keys generated once per test process (RSA generation takes a moment): an issuer that signs
/// and a wallet (Google's role) that decrypts, plus a stranger of each kind.
enum TestKeys {
    /// A day ago: GnuPG checks the keys against the real clock, so they must be valid today.
    static let created = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded(.down))
    static let now = created.addingTimeInterval(3600)

    static let issuer = generate("Issuer Signing <issuer@example.com>")
    static let wallet = generate("Wallet Encryption <wallet@example.com>")
    static let otherIssuer = generate("Other Issuer <other@example.com>")
    static let otherWallet = generate("Other Wallet <other-wallet@example.com>")

    static let card = Data(
        #"{"protocolHeader":{"version":1},"validationContext":{"serverSessionId":"GoogleSession123"},"paymentCard":{"accountNumber":"4321123412341234","expiryMonth":"12","expiryYear":"29"}}"#
            .utf8)

    private static func generate(_ userID: String) -> OpenPGPSecretKey {
        // 2048 bits keeps the suite quick; the GnuPG tests use Google's 3072-bit default too.
        try! OpenPGPSecretKey.generateRSA(userID: userID, bits: 2048, creationTime: created)
    }

    static func seal(
        _ data: Data = card, signer: OpenPGPSecretKey = issuer, to recipients: [OpenPGPPublicKey] = [wallet.publicKey],
        options: OpenPGPSealOptions = OpenPGPSealOptions()
    ) throws -> Data {
        try OpenPGPMessage.seal(data, signer: signer, recipients: recipients, at: now, options: options)
    }

    static func open(
        _ message: some DataProtocol, recipient: OpenPGPSecretKey = wallet, signers: [OpenPGPPublicKey] = [issuer.publicKey],
        limits: OpenPGPLimits = .default
    ) throws(OpenPGPError) -> OpenPGPOpenedMessage {
        try OpenPGPMessage.open(message, recipientKeys: [recipient], signers: signers, at: now, limits: limits)
    }

    /// The error code `body` fails with, or nil if it succeeds.
    static func code(_ body: () throws(OpenPGPError) -> some Any) -> OpenPGPError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.code
        }
    }
}
