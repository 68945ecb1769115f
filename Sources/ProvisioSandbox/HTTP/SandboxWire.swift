import Foundation

/// The JSON the sandbox's HTTP service speaks (`provisio sandbox serve`), shared by the service
/// and `SandboxClient`: plain `Codable` values with snake_case keys, built from the sandbox's
/// own types. None of them can carry a PAN: passes and tokens show the last four digits only.
public enum SandboxWire {
    /// Dates travel as ISO 8601 (whole seconds, UTC), like Provisio's own API.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
