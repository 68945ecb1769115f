import Hummingbird
import ProvisioHTTP

/// Per-request state on the MDES listener: an id for the logs (MDES's own `requestId` is in the
/// body), and the body limits. `encryptedData` alone may be 256 KiB of hex, so the limit is
/// above the main listener's.
public struct MDESRequestContext: WireRequestContext {
    public static let maximumBodyBytes = 320 * 1024

    public var coreContext: CoreRequestContextStorage
    public let requestID: String
    public var bodyDeadline: ContinuousClock.Instant

    public var maxUploadSize: Int { Self.maximumBodyBytes }

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.requestID = RequestID.generate()
        self.bodyDeadline = .now.advanced(by: HTTPLimits.standard.bodyReadTimeout)
        self.logger[metadataKey: "request_id"] = .string(requestID)
    }
}
