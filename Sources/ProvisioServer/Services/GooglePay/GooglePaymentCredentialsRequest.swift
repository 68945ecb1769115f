import ProvisioCore
import ProvisioOpenPGP

/// Google's `GeneratePaymentCredentialsRequest` (Unified Push Provisioning) as the issuer's app
/// forwards it (docs/android-wallets.md §1). Only the server session goes into the Google OPC;
/// the other fields are checked and not kept.
public struct GooglePaymentCredentialsRequest: Sendable, Equatable {
    public var serverSessionID: String
    public var stableHardwareID: String?
    public var walletID: String?
    public var tokenRequestorID: String?
    /// False: Google wants the TSP OPC only this time.
    public var googleOpaquePaymentCardRequested: Bool

    /// The longest id taken for the other fields: Google publishes no bound, so the session's.
    public static let maximumIDLength = GoogleOpaquePaymentCard.maximumSessionIDLength

    /// Checks every field: the session 1 to 512 visible ASCII characters (what the Google OPC
    /// carries), the others 1 to 512 printable ASCII characters.
    public init(
        serverSessionID: String, stableHardwareID: String? = nil, walletID: String? = nil, tokenRequestorID: String? = nil,
        googleOpaquePaymentCardRequested: Bool = true
    ) throws {
        try Self.check(serverSessionID, "credentials_request.server_session_id", allowed: 0x21...0x7E)
        for (field, value) in [
            ("stable_hardware_id", stableHardwareID), ("wallet_id", walletID), ("token_requestor_id", tokenRequestorID),
        ] {
            if let value { try Self.check(value, "credentials_request.\(field)", allowed: 0x20...0x7E) }
        }
        self.serverSessionID = serverSessionID
        self.stableHardwareID = stableHardwareID
        self.walletID = walletID
        self.tokenRequestorID = tokenRequestorID
        self.googleOpaquePaymentCardRequested = googleOpaquePaymentCardRequested
    }

    private static func check(_ value: String, _ field: String, allowed: ClosedRange<UInt8>) throws {
        guard (1...maximumIDLength).contains(value.utf8.count), value.utf8.allSatisfy({ allowed.contains($0) }) else {
            throw ProvisioError(
                .invalidParameter,
                "\(field) must be 1 to \(maximumIDLength) \(allowed.lowerBound == 0x21 ? "visible" : "printable") ASCII characters."
            )
        }
    }
}
