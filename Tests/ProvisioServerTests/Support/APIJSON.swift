import Foundation
import OpenAPIRuntime
import ProvisioAPI

/// JSON as the generated client reads and writes it, for bodies that do not go through it (raw
/// requests, webhook payloads): the generated types' own coding, strict timestamps.
enum APIJSON {
    /// The generated client's configuration with strict timestamps.
    static let configuration = Configuration(dateTranscoder: StrictTimestamp())

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try StrictTimestamp().decode(try decoder.singleValueContainer().decode(String.self))
        }
        return try decoder.decode(type, from: data)
    }

    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try StrictTimestamp().encode(date))
        }
        return try encoder.encode(value)
    }
}
