import Foundation

// The minimal UIKit / Core Graphics subset the SDK touches on Linux.

/// https://developer.apple.com/documentation/uikit/uiviewcontroller
@MainActor
open class UIViewController: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/presentedviewcontroller
    public private(set) var presentedViewController: UIViewController?
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/presentingviewcontroller
    public private(set) weak var presentingViewController: UIViewController?

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/init(nibname:bundle:)
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init()
    }

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/present(_:animated:completion:)
    open func present(
        _ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (@MainActor @Sendable () -> Void)? = nil
    ) {
        presentedViewController = viewControllerToPresent
        viewControllerToPresent.presentingViewController = self
        viewControllerToPresent.standInDidAppear()
        completion?()
    }

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/dismiss(animated:completion:)
    open func dismiss(animated flag: Bool, completion: (@MainActor @Sendable () -> Void)? = nil) {
        if let presented = presentedViewController {
            presented.presentingViewController = nil
            presentedViewController = nil
        } else if let presenting = presentingViewController {
            presenting.presentedViewController = nil
            presentingViewController = nil
        }
        completion?()
    }

    /// Not part of Apple's API: the system shows the controller (where PassKit's sheets start).
    func standInDidAppear() {}
}

/// https://developer.apple.com/documentation/coregraphics/cgimage
public final class CGImage {
    /// https://developer.apple.com/documentation/coregraphics/cgimage/width
    public let width: Int
    /// https://developer.apple.com/documentation/coregraphics/cgimage/height
    public let height: Int

    /// Not part of Apple's API: the decoded image's size (the stand-in keeps no pixels).
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// https://developer.apple.com/documentation/uikit/uiimage
open class UIImage: NSObject {
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
