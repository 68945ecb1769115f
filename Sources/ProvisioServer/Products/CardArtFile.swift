import Crypto
import Foundation
import ProvisioCore
import ProvisioDoctor

/// A card product's art as uploaded, checked: a PNG held to the rules `provisio doctor` applies
/// to an app's art (Apple's: 1536 × 969, landscape, under 4 MB — `CardArtCheck` — and squared
/// corners — `CornerInspection`), or a one-piece vector PDF under 4 MB. Named by its SHA-256, so
/// its URL changes exactly when its bytes do.
public struct CardArtFile: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case png = "image/png"
        case pdf = "application/pdf"

        /// The extension its URL ends in.
        public var fileExtension: String { self == .png ? "png" : "pdf" }
    }

    public let kind: Kind
    public let bytes: Data
    /// Lowercase hex.
    public let sha256: String
    public let width: Int?
    public let height: Int?

    /// Pixels decoded to look at the corners at most: Apple's size is 1.5 million.
    static let maximumPixels = 4_000_000

    /// The art from the request's base64, or the first rule it breaks.
    public init(kind: Kind, base64: String) throws {
        // Base64 of 4 MB is about 5.6 MB; the route's body limit stops anything much larger.
        guard let bytes = Data(base64Encoded: base64), !bytes.isEmpty else {
            throw ProvisioError(.invalidParameter, "data must be the art's bytes in base64 (standard alphabet, padded).")
        }
        switch kind {
        case .png:
            try CardArtCheck.validate(bytes)
            let image: PNGImage
            do {
                image = try PNGImage(data: bytes, maximumPixels: Self.maximumPixels)
            } catch {
                throw ProvisioError(.cardArtNotPNG, "The PNG's pixels cannot be read; export it again as a plain PNG.")
            }
            switch CornerInspection.inspect(image) {
            case .squared: break
            case .transparentCorners(let corners):
                throw ProvisioError(
                    .cardArtRoundedCorners,
                    "The art's \(corners.joined(separator: ", ")) corner(s) are transparent; Apple asks for squared corners (Wallet rounds the card)."
                )
            case .matteCorners:
                throw ProvisioError(
                    .cardArtRoundedCorners,
                    "The art is a rounded card on a matte; Apple asks for squared corners filled to the edge.")
            }
            self.width = image.width
            self.height = image.height
        case .pdf:
            guard bytes.count < CardArtCheck.maximumByteCount else {
                throw ProvisioError(.cardArtTooLarge, "The art is \(bytes.count) bytes; it must be under 4 MB.")
            }
            // A whole file: the header at the start and the end-of-file marker in the last KiB
            // (PDF allows trailing whitespace after it).
            guard bytes.starts(with: Array("%PDF-".utf8)), bytes.suffix(1024).range(of: Data("%%EOF".utf8)) != nil else {
                throw ProvisioError(.cardArtNotPdf, "The art is not one whole PDF file (from %PDF- to %%EOF).")
            }
            self.width = nil
            self.height = nil
        }
        self.kind = kind
        self.bytes = bytes
        self.sha256 = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// The name it is served under (`/v1/card-art/{name}`).
    public var fileName: String { "\(sha256).\(kind.fileExtension)" }
}
