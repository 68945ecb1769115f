import Foundation

/// Checks card art bytes against Apple's requirements for pass entries and pass art: PNG,
/// exactly 1536 × 969 pixels, landscape, under 4 MB. Reads only the 8-byte signature and the
/// IHDR chunk that must follow it; the pixels are not decoded.
public enum CardArtCheck {
    /// The width Apple requires, in pixels.
    public static let requiredWidth = 1536
    /// The height Apple requires, in pixels.
    public static let requiredHeight = 969
    /// The art must be smaller than this (4 MB).
    public static let maximumByteCount = 4 * 1024 * 1024

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Every problem found, in a fixed order (PNG, size, landscape, bytes); empty when the art is fine.
    public static func problems(in data: Data) -> [CardArtProblem] {
        var problems: [CardArtProblem] = []
        switch dimensions(of: data) {
        case .success(let (width, height)):
            if width != requiredWidth || height != requiredHeight {
                problems.append(.wrongSize(width: width, height: height))
            }
            if width <= height { problems.append(.notLandscape(width: width, height: height)) }
        case .failure(let problem):
            problems.append(problem)
        }
        if data.count >= maximumByteCount { problems.append(.tooLarge(byteCount: data.count)) }
        return problems
    }

    /// Throws the first problem as a `ProvisioError` whose message lists every problem.
    public static func validate(_ data: Data) throws {
        let problems = problems(in: data)
        guard let first = problems.first else { return }
        throw ProvisioError(first.code, problems.map(\.message).joined(separator: " "))
    }

    /// The width and height from the PNG header, or `notPNG` saying what is missing.
    public static func dimensions(of data: Data) -> Result<(width: Int, height: Int), CardArtProblem> {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count >= 8, Array(bytes[0..<8]) == pngSignature else {
            return .failure(.notPNG(detail: "the file does not start with the PNG signature"))
        }
        // IHDR must come first: 4-byte length 13, type "IHDR", then width and height (big-endian).
        guard bytes.count >= 24, readUInt32(bytes, at: 8) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            return .failure(.notPNG(detail: "the IHDR header is missing or truncated"))
        }
        let width = Int(readUInt32(bytes, at: 16))
        let height = Int(readUInt32(bytes, at: 20))
        guard width > 0, height > 0 else {
            return .failure(.notPNG(detail: "the IHDR header gives a zero width or height"))
        }
        return .success((width, height))
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
