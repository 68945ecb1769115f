import Foundation

/// https://developer.apple.com/documentation/passkit/pkpasslibrary
@available(iOS 6.0, *)
open class PKPassLibrary: NSObject {
    /// Not part of Apple's API: the device this library reads (captured at init).
    let device: any PassKitStandInDevice
    /// Not part of Apple's API: the calling app's identifier (captured at init); the library
    /// shows only the passes this app may see (`PassKitStandInPass.isVisible(toApplication:)`).
    let applicationIdentifier: String?

    /// NSObject's initializer (PassKit declares none of its own); the stand-in captures its
    /// device and the calling app.
    public override init() {
        self.device = PassKitStandInEnvironment.current
        self.applicationIdentifier = PassKitStandInEnvironment.applicationIdentifier
        super.init()
    }

    /// Not part of Apple's API: the device's passes this app sees — a product's only in its
    /// associated apps, as PassKit filters them for the calling app.
    private func visiblePasses(remote: Bool) -> [PassKitStandInPass] {
        device.secureElementPasses(remote: remote).filter { $0.isVisible(toApplication: applicationIdentifier) }
    }

    /// https://developer.apple.com/documentation/passkit/pkpasslibrary/ispasslibraryavailable()
    @available(iOS 6.0, *)
    open class func isPassLibraryAvailable() -> Bool {
        PassKitStandInEnvironment.current.isPassLibraryAvailable
    }

    /// https://developer.apple.com/documentation/passkit/pkpasslibrary/passes()
    open func passes() -> [PKPass] {
        passes(of: .any)
    }

    /// https://developer.apple.com/documentation/passkit/pkpasslibrary/passes(of:)
    @available(iOS 8.0, *)
    open func passes(of passType: PKPassType) -> [PKPass] {
        switch passType {
        case .barcode: []
        case .secureElement, .any: visiblePasses(remote: false).map { PKPaymentPass(record: $0) }
        }
    }

    /// https://developer.apple.com/documentation/passkit/pkpasslibrary/remotesecureelementpasses
    @available(iOS 13.4, *)
    open var remoteSecureElementPasses: [PKSecureElementPass] {
        visiblePasses(remote: true).map { PKPaymentPass(record: $0) }
    }

    /// https://developer.apple.com/documentation/passkit/pkpasslibrary/pass(withpasstypeidentifier:serialnumber:)
    open func pass(withPassTypeIdentifier identifier: String, serialNumber: String) -> PKPass? {
        visiblePasses(remote: false).first {
            $0.passTypeIdentifier == identifier && $0.serialNumber == serialNumber
        }.map { PKPaymentPass(record: $0) }
    }

    /// https://developer.apple.com/documentation/passkit/pkpasslibrary/canaddsecureelementpass(primaryaccountidentifier:)
    @available(iOS 13.4, *)
    open func canAddSecureElementPass(primaryAccountIdentifier: String) -> Bool {
        device.canAddSecureElementPass(primaryAccountIdentifier: primaryAccountIdentifier)
    }

    /// https://developer.apple.com/documentation/passkit/pkpasslibrary/activate(_:activationdata:completion:)
    @available(iOS 13.4, *)
    open func activate(
        _ secureElementPass: PKSecureElementPass, activationData: Data,
        completion: (@Sendable (Bool, (any Error)?) -> Void)? = nil
    ) {
        let device = self.device
        let serialNumber = secureElementPass.serialNumber
        Task {
            do {
                _ = try await device.activate(serialNumber: serialNumber, activationData: activationData)
                completion?(true, nil)
            } catch {
                completion?(false, error)
            }
        }
    }

    /// https://developer.apple.com/documentation/passkit/pkpasslibrary/activate(_:activationdata:completion:)
    @available(iOS 13.4, *)
    open func activate(_ secureElementPass: PKSecureElementPass, activationData: Data) async throws -> Bool {
        _ = try await device.activate(serialNumber: secureElementPass.serialNumber, activationData: activationData)
        return true
    }
}
