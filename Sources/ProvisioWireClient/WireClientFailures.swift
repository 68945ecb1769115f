import ProvisioCore
import ProvisioJSON

/// How one client tells its caller what went wrong, in its own codes. `what` names the call for
/// people ("the token request").
public struct WireClientFailures: Sendable {
    /// The service could not be reached or did not answer in time (`cause`: the transport's error).
    public var unreachable: @Sendable (_ what: String, _ cause: any Error) -> ProvisioError
    /// It answered, but not with the documented answer.
    public var malformed: @Sendable (_ what: String) -> ProvisioError
    /// It refused (not 2xx), with its error object when it sent one.
    public var refused: @Sendable (_ what: String, _ status: Int, _ error: WireError.Body?) -> ProvisioError

    public init(
        unreachable: @escaping @Sendable (_ what: String, _ cause: any Error) -> ProvisioError,
        malformed: @escaping @Sendable (_ what: String) -> ProvisioError,
        refused: @escaping @Sendable (_ what: String, _ status: Int, _ error: WireError.Body?) -> ProvisioError
    ) {
        self.unreachable = unreachable
        self.malformed = malformed
        self.refused = refused
    }
}
