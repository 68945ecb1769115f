import Foundation

/// https://developer.apple.com/documentation/uikit/uiimage
///
/// `@unchecked Sendable` because Apple declares UIImage Sendable (it is immutable); an open class
/// cannot be checked, and this one's only state is a `let` of a Sendable `CGImage`.
@available(iOS 2.0, *)
open class UIImage: NSObject, @unchecked Sendable {
    private let image: CGImage

    /// https://developer.apple.com/documentation/uikit/uiimage/init(data:)
    /// The stand-in decodes PNG headers only (width and height from IHDR).
    public init?(data: Data) {
        let bytes = [UInt8](data)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func be32(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let width = be32(16)
        let height = be32(20)
        guard width > 0, height > 0 else { return nil }
        self.image = CGImage(width: width, height: height)
        super.init()
    }

    /// https://developer.apple.com/documentation/uikit/uiimage/cgimage
    open var cgImage: CGImage? { image }
}
