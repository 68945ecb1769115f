import Foundation

/// https://developer.apple.com/documentation/coregraphics/cgimage
///
/// Sendable, as Apple declares it; a Core Foundation type, so no availability attribute.
public final class CGImage: Sendable {
    /// https://developer.apple.com/documentation/coregraphics/cgimage/width
    @available(iOS 2.0, *)
    public let width: Int
    /// https://developer.apple.com/documentation/coregraphics/cgimage/height
    @available(iOS 2.0, *)
    public let height: Int

    /// Not part of Apple's API: the decoded image's size (the stand-in keeps no pixels).
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
