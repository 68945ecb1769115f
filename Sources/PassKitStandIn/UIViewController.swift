import Foundation

/// https://developer.apple.com/documentation/uikit/uiviewcontroller
///
/// The minimal UIKit subset ProvisioKit touches on Linux. `@MainActor` as UIKit declares it
/// (`NS_SWIFT_UI_ACTOR`); the completion blocks are neither `@Sendable` nor main-actor typed in
/// Apple's declarations.
@available(iOS 2.0, *)
@MainActor
open class UIViewController: UIResponder {
    private var presented: UIViewController?
    private weak var presenting: UIViewController?

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/presentedviewcontroller
    @available(iOS 5.0, *)
    public var presentedViewController: UIViewController? { presented }
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/presentingviewcontroller
    @available(iOS 5.0, *)
    public var presentingViewController: UIViewController? { presenting }

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/init(nibname:bundle:)
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init()
    }

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/present(_:animated:completion:)
    @available(iOS 5.0, *)
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {
        presented = viewControllerToPresent
        viewControllerToPresent.presenting = self
        viewControllerToPresent.standInDidAppear()
        completion?()
    }

    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/dismiss(animated:completion:)
    @available(iOS 5.0, *)
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        if let presented {
            presented.presenting = nil
            self.presented = nil
        } else if let presenting {
            presenting.presented = nil
            self.presenting = nil
        }
        completion?()
    }

    /// Not part of Apple's API: the system shows the controller (where PassKit's sheets start).
    func standInDidAppear() {}
}
