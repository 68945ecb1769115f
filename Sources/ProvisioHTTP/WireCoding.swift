import Foundation
import OpenAPIRuntime

/// The JSON every service writes: compact, sorted keys, unescaped slashes, ISO 8601 dates in
/// whole seconds — byte-for-byte stable. The generated operations answer with the same options.
public enum WireCoding {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// What the generated server code of every service is registered with.
    public static let openAPIConfiguration = Configuration(jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])
}
