import Foundation
import ProvisioSandbox
import ProvisioSandboxAPI

extension Components.Schemas.Device {
    /// One device of the wallet: its kind and its secure element's P-256 public key (base64 of
    /// the X9.63 form).
    package init(_ device: SandboxDevice) {
        self.init(
            kind: .init(device.kind),
            secureElementPublicKey: device.secureElementPublicKey.x963Representation.base64EncodedString())
    }
}
