import Foundation

/// The one JSON form of what the app and its extensions share (configuration, session metadata,
/// pending adds): ISO 8601 dates (whole seconds), sorted keys so identical values give identical bytes.
enum ExtensionJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Decodes `data`, turning any decoding failure into a `ProvisioError` with `code`.
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data, code: ProvisioError.Code, what: String) throws
        -> Value
    {
        do {
            return try decoder().decode(type, from: data)
        } catch {
            throw ProvisioError(code, "The \(what) is not readable JSON of the expected shape.")
        }
    }
}
