import Foundation

/// The JSON inside app-to-app's `EXTRA_TEXT` in Visa's form on Google Wallet: `panReferenceID`,
/// `tokenRequestorID`, `tokenReferenceID`, `panLast4`, `deviceID`, `walletAccountID`, base64url
/// ([POM] `SPEC_A2A.md`; docs/android-wallets.md §4). The TSP writes it and Google passes it
/// on as is. The sandbox's network plays every TSP, so every token gets Visa's form: the
/// Mastercard form for Google is not public.
public struct GoogleAppToAppPayload: Sendable, Hashable, Codable {
    /// The network's reference for the card (the sandbox: the card id the issuer's OPC named).
    public let panReferenceID: String
    public let tokenRequestorID: String
    /// The network's reference for the token.
    public let tokenReferenceID: String
    public let panLast4: String
    /// The phone's stable hardware id.
    public let deviceID: String
    /// The active wallet's id.
    public let walletAccountID: String

    /// The base64url (unpadded) JSON that goes in `EXTRA_TEXT`.
    public var extraText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings only: encoding cannot fail.
        let json = try! encoder.encode(self)
        return json.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Reads `EXTRA_TEXT` as the issuer's app does; nil when it is not this JSON in base64url.
    public init?(extraText: String) {
        var base64 = extraText.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if base64.utf8.count % 4 != 0 { base64 += String(repeating: "=", count: 4 - base64.utf8.count % 4) }
        guard let json = Data(base64Encoded: base64), let payload = try? JSONDecoder().decode(Self.self, from: json) else {
            return nil
        }
        self = payload
    }

    init(
        panReferenceID: String, tokenRequestorID: String, tokenReferenceID: String, panLast4: String, deviceID: String,
        walletAccountID: String
    ) {
        self.panReferenceID = panReferenceID
        self.tokenRequestorID = tokenRequestorID
        self.tokenReferenceID = tokenReferenceID
        self.panLast4 = panLast4
        self.deviceID = deviceID
        self.walletAccountID = walletAccountID
    }
}
