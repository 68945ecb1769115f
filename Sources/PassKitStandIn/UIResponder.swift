import Foundation

/// https://developer.apple.com/documentation/uikit/uiresponder
///
/// Only so that `UIViewController` has Apple's superclass; the stand-in needs none of its API.
@available(iOS 2.0, *)
@MainActor
open class UIResponder: NSObject {}
