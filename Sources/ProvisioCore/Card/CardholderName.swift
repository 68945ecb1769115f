import Foundation

/// A cardholder name as it is printed in Wallet and sent in Apple's payload.
///
/// Normalisation: Unicode NFC, surrounding whitespace trimmed, inner runs of whitespace
/// collapsed to one space. Control characters are refused rather than silently dropped.
public struct CardholderName: Hashable, Sendable, CustomStringConvertible {
    public static let maximumLength = 64

    public let value: String

    public init(_ raw: String) throws {
        // Printable ASCII, most names, is already NFC and holds no control character: only other
        // text pays for Foundation's normalisation and the scalar-by-scalar scan (on the Apple
        // Pay endpoint's path, about 1 % of the server's CPU).
        let printableASCII = raw.utf8.allSatisfy { (0x20...0x7E).contains($0) }
        let composed = printableASCII ? raw : raw.precomposedStringWithCanonicalMapping
        if !printableASCII,
            composed.unicodeScalars.contains(where: {
                CharacterSet.controlCharacters.contains($0) && !CharacterSet.whitespacesAndNewlines.contains($0)
            })
        {
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
