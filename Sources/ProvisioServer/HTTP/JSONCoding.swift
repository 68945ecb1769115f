import Foundation

/// The JSON Provisio writes itself (errors, webhook payloads, the sealed card for the network):
/// compact, sorted keys, unescaped slashes and ISO 8601 dates, byte-for-byte stable. Answers of
/// the generated operations use the same options (`ProvisioHTTPApplication`).
enum JSONCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()
}
