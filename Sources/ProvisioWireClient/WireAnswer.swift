import ProvisioCore
import ProvisioJSON

/// Why `WireClientMiddleware` did not hand an answer to the generated code; `WireCall` turns it
/// into the calling client's own error.
public enum WireAnswer: Error, Sendable {
    /// Not 2xx, with the service's error object when it sent one.
    case refused(status: Int, error: WireError.Body?)
    /// Too large, or not strict JSON.
    case malformed
}
