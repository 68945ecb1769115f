import Crypto
import Foundation

extension SandboxWire {
    /// One device of the wallet, as `GET /sandbox/v1/devices` lists it.
    public struct Device: Codable, Sendable, Hashable {
        public var kind: SandboxDeviceKind
        /// The secure element's P-256 public key, base64 of its X9.63 (uncompressed) form.
        public var secureElementPublicKey: String

        public init(_ device: SandboxDevice) {
            self.kind = device.kind
            self.secureElementPublicKey = device.secureElementPublicKey.x963Representation.base64EncodedString()
        }

        enum CodingKeys: String, CodingKey {
            case kind
            case secureElementPublicKey = "secure_element_public_key"
        }
    }

    public struct DeviceList: Codable, Sendable, Hashable {
        public var devices: [Device]

        public init(_ devices: [SandboxDevice]) {
            self.devices = devices.map(Device.init)
        }
    }
}
