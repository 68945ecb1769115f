import Foundation
import ProvisioCore

/// The Samsung Pay SDK's `AddCardInfo(cardType, tokenizationProvider, cardDetail)`: what the
/// issuer's app hands `addCard`, with the network's payload in `cardDetail` under
/// `provisionPayload` (`EXTRA_PROVISION_PAYLOAD`). Samsung leaves the payload to the card network
/// (docs/samsung-wallet.md); Provisio's is the standard Base64 of the network's opaque payment card.
///
/// Checked as Samsung's SDK checks it on construction (a decompiled `AddCardInfo`): the payload
/// must be there and non-empty, and a Mastercard payload must decode as Base64. The SDK throws an
/// `IllegalArgumentException` for the first and only logs the second; the sandbox refuses both,
/// as `ERROR_INVALID_INPUT` (-2) and `ERROR_INVALID_PARAMETER` (-12), so a tester sees the mistake
/// before the network does (an assumption: stricter than the SDK).
public struct SamsungAddCardInfo: Sendable, Hashable {
    /// `EXTRA_PROVISION_PAYLOAD`.
    public static let provisionPayloadKey = "provisionPayload"
    /// `EXTRA_ISSUER_ID` (the issuer's BIN range; wrappers set it for Elo). Carried, not read.
    public static let issuerIDKey = "issuerId"
    /// The sandbox's bound on a payload (Samsung publishes none; an Android bundle crosses a
    /// binder transaction of at most 1 MB). Provisio's payloads are under 2 KiB.
    public static let payloadLimit = 64 * 1024

    public let cardType: SamsungCardType
    public let tokenizationProvider: SamsungTokenizationProvider
    public let cardDetail: [String: String]

    /// `sandbox_samsung_invalid_input` (-2) for a missing, empty or oversized payload;
    /// `sandbox_samsung_invalid_parameter` (-12) for a Mastercard payload that is not Base64.
    public init(cardType: SamsungCardType, tokenizationProvider: SamsungTokenizationProvider, cardDetail: [String: String])
        throws
    {
        guard let payload = cardDetail[Self.provisionPayloadKey], !payload.isEmpty else {
            throw ProvisioError(
                .sandboxSamsungInvalidInput, "\(SamsungErrorCode.invalidInput): the provision payload must be provided.")
        }
        guard payload.utf8.count <= Self.payloadLimit else {
            throw ProvisioError(
                .sandboxSamsungInvalidInput,
                "\(SamsungErrorCode.invalidInput): the provision payload is over \(Self.payloadLimit) bytes.")
        }
        if tokenizationProvider == .mastercard, Self.base64Decoded(payload) == nil {
            throw ProvisioError(
                .sandboxSamsungInvalidParameter,
                "\(SamsungErrorCode.invalidParameter): a Mastercard provision payload must be Base64.")
        }
        self.cardType = cardType
        self.tokenizationProvider = tokenizationProvider
        self.cardDetail = cardDetail
    }

    /// `provisionPayload`.
    public var provisionPayload: String { cardDetail[Self.provisionPayloadKey] ?? "" }

    /// Standard Base64 (RFC 4648 §4, strictly), padding optional as Android's decoder takes it;
    /// nil for anything else (the URL-safe alphabet, a JWE's dots, whitespace).
    static func base64Decoded(_ text: String) -> Data? {
        BinaryText.decodeBase64(text)
    }
}
