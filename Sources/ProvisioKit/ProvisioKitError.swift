import ProvisioClient

/// ProvisioKit's former error type, now `ProvisioClientError` (ProvisioClient), which carries
/// the same typed `code`, `message`, `userMessage` and `requestID`, and the HTTP status: the app
/// catches one type from the whole SDK. Kept so existing code compiles.
@available(*, deprecated, renamed: "ProvisioClientError")
public typealias ProvisioKitError = ProvisioClientError
