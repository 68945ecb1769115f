import Foundation

/// https://developer.apple.com/documentation/passkit/pkobject
///
/// No availability attribute: PKObject.h declares none (PassKit itself starts at iOS 6).
open class PKObject: NSObject {}
