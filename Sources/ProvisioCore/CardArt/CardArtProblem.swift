/// One way card art misses Apple's requirements, with a stable code and a message for people.
public enum CardArtProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a PNG: no PNG signature, or no readable IHDR header after it.
    case notPNG(detail: String)
    /// Not exactly 1536 × 969 pixels.
    case wrongSize(width: Int, height: Int)
    /// 4 MB (4,194,304 bytes) or more.
    case tooLarge(byteCount: Int)
    /// Not wider than tall.
    case notLandscape(width: Int, height: Int)

    /// The stable code (`card_art_not_png`, …).
    public var code: ProvisioError.Code {
        switch self {
        case .notPNG: .cardArtNotPNG
        case .wrongSize: .cardArtWrongSize
        case .tooLarge: .cardArtTooLarge
        case .notLandscape: .cardArtNotLandscape
        }
    }

    /// What is wrong and what is expected.
    public var message: String {
        switch self {
        case .notPNG(let detail):
            "Card art must be a PNG file: \(detail)."
        case .wrongSize(let width, let height):
            "Card art must be \(CardArtCheck.requiredWidth) × \(CardArtCheck.requiredHeight) pixels; this image is \(width) × \(height)."
        case .tooLarge(let byteCount):
            "Card art must be under 4 MB (\(CardArtCheck.maximumByteCount) bytes); this file is \(byteCount) bytes."
        case .notLandscape(let width, let height):
            "Card art must be landscape (wider than tall); this image is \(width) × \(height)."
        }
    }

    /// The problem as Provisio's error type.
    public var error: ProvisioError { ProvisioError(code, message) }

    public var description: String { "\(code.rawValue): \(message)" }
}
