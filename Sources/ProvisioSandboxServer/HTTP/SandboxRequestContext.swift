import Hummingbird

/// Per-request state of the sandbox service: Hummingbird's core storage, with the body limit
/// every route reads under.
public struct SandboxRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    /// Bodies above this are refused with 413 `sandbox_payload_too_large` before they are parsed.
    public var maxUploadSize: Int { SandboxHTTPService.maximumBodyBytes }
}
