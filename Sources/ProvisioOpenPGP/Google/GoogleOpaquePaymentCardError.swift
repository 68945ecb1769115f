/// Why a Google opaque payment card could not be made or read: a stable code and a message that
/// never carries the card number or the input's bytes.
public struct GoogleOpaquePaymentCardError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// A card number, expiry or server session id that Google's schema does not allow.
        case invalidCard = "google_opc_invalid_card"
        /// The value is not base64 (standard or URL-safe alphabet).
        case notBase64 = "google_opc_not_base64"
        /// The decrypted, verified content is not the OPC's JSON.
        case malformed = "google_opc_malformed"
        /// The OPC names another server session than the one being provisioned.
        case sessionMismatch = "google_opc_session_mismatch"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
