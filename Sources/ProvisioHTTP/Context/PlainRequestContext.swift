import Hummingbird

/// The request context of a service that needs nothing per request beyond the basics (the
/// sandbox): a request id, in the logger's metadata too, and the standard body limits.
public struct PlainRequestContext: WireRequestContext {
    /// Requests are small JSON objects; larger bodies are refused (413) before they are parsed.
    public static let maximumBodyBytes = 256 * 1024
    /// How long after its headers a request's body may take to arrive.
    public static let bodyReadTimeout: Duration = .seconds(10)

    public var coreContext: CoreRequestContextStorage
    public let requestID: String
    public let bodyDeadline: ContinuousClock.Instant

    public var maxUploadSize: Int { Self.maximumBodyBytes }

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.requestID = RequestID.generate()
        self.bodyDeadline = .now.advanced(by: Self.bodyReadTimeout)
        self.logger[metadataKey: "request_id"] = .string(requestID)
    }
}
