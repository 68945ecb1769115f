import Foundation

/// https://developer.apple.com/documentation/passkit/pkpass
///
/// No availability attribute on the class: PKPass.h declares none.
open class PKPass: PKObject {
    /// Not part of Apple's API: the device's record of the pass.
    let record: PassKitStandInPass

    init(record: PassKitStandInPass) {
        self.record = record
    }

    /// https://developer.apple.com/documentation/passkit/pkpass/serialnumber
    open var serialNumber: String { record.serialNumber }
    /// https://developer.apple.com/documentation/passkit/pkpass/passtypeidentifier
    open var passTypeIdentifier: String { record.passTypeIdentifier }
    /// https://developer.apple.com/documentation/passkit/pkpass/isremotepass
    @available(iOS 9.0, *)
    open var isRemotePass: Bool { record.isRemote }
    /// https://developer.apple.com/documentation/passkit/pkpass/devicename
    @available(iOS 9.0, *)
    open var deviceName: String { record.deviceName }
    /// https://developer.apple.com/documentation/passkit/pkpass/secureelementpass
    @available(iOS 13.4, *)
    open var secureElementPass: PKSecureElementPass? { self as? PKSecureElementPass }
}
