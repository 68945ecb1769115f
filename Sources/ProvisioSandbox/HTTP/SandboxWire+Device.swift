import Crypto
import Foundation
import ProvisioSandboxAPI

extension SandboxWire {
    /// One device of the wallet, as `GET /sandbox/v1/devices` lists it.
    public struct Device: Sendable, Hashable {
        public var kind: SandboxDeviceKind
        /// The secure element's P-256 public key, base64 of its X9.63 (uncompressed) form.
        public var secureElementPublicKey: String

        public init(_ device: SandboxDevice) {
            self.kind = device.kind
            self.secureElementPublicKey = device.secureElementPublicKey.x963Representation.base64EncodedString()
        }

        package init(_ device: Components.Schemas.Device) throws {
            self.kind = try .init(spelling: device.kind)
            self.secureElementPublicKey = device.secureElementPublicKey
        }
    }
}

extension Components.Schemas.Device {
    package init(_ device: SandboxWire.Device) throws {
        self.init(kind: try .init(spelling: device.kind), secureElementPublicKey: device.secureElementPublicKey)
    }
}
