import Foundation

/// A cardholder name as it is printed in Wallet and sent in Apple's payload.
///
/// Normalisation: Unicode NFC, surrounding whitespace trimmed, inner runs of whitespace
/// collapsed to one space. Control characters are refused rather than silently dropped.
public struct CardholderName: Hashable, Sendable, CustomStringConvertible {
    public static let maximumLength = 64

    public let value: String

    public init(_ raw: String) throws {
        let composed = raw.precomposedStringWithCanonicalMapping
        if composed.unicodeScalars.contains(where: {
            CharacterSet.controlCharacters.contains($0) && !CharacterSet.whitespacesAndNewlines.contains($0)
        }) {
            throw ProvisioError(.invalidCardholderName, "The cardholder name contains control characters.")
        }
        let words = composed.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        let normalised = words.joined(separator: " ")
        guard !normalised.isEmpty else {
            throw ProvisioError(.invalidCardholderName, "The cardholder name is empty.")
        }
        guard !CardNumberPattern.containsCardNumber(normalised) else {
            throw ProvisioError(.invalidCardholderName, "The cardholder name holds what looks like a card number.")
        }
        // Code points, as JSON Schema and the wire count them (not grapheme clusters).
        guard normalised.unicodeScalars.count <= Self.maximumLength else {
            throw ProvisioError(
                .invalidCardholderName, "The cardholder name is longer than \(Self.maximumLength) characters.")
        }
        self.value = normalised
    }

    public var description: String { value }
}
