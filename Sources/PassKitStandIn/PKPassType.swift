import Foundation

/// https://developer.apple.com/documentation/passkit/pkpasstype
@available(iOS 8.0, *)
public enum PKPassType: UInt, Sendable {
    /// https://developer.apple.com/documentation/passkit/pkpasstype/barcode
    case barcode = 0
    /// https://developer.apple.com/documentation/passkit/pkpasstype/secureelement
    @available(iOS 13.4, *)
    case secureElement = 1
    /// https://developer.apple.com/documentation/passkit/pkpasstype/any
    case any = 18_446_744_073_709_551_615
}
