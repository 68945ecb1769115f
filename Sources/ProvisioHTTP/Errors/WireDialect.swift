import Logging
import OpenAPIRuntime
import ProvisioCore
import ProvisioJSON

/// The codes a service answers the shared HTTP layer's own refusals with. Provisio's API names
/// each refusal (`invalid_json`, `unknown_field`, `route_not_found`, …); the sandbox answers
/// every malformed request `sandbox_invalid_request`, as its wire always has. The messages are
/// the same for both, and never quote what the caller sent. Errors a service's handlers throw
/// keep their own codes.
public struct WireDialect: Sendable {
    /// Not strict JSON, or not an object.
    public var invalidJSON: ProvisioError.Code
    /// A key twice in one object.
    public var duplicateKey: ProvisioError.Code
    /// A field missing, mistyped or null, or a control character in a text.
    public var invalidRequest: ProvisioError.Code
    /// A field the operation does not declare.
    public var unknownField: ProvisioError.Code
    /// A path or query parameter that is missing, not declared or not readable.
    public var invalidParameter: ProvisioError.Code
    public var payloadTooLarge: ProvisioError.Code
    public var requestTimeout: ProvisioError.Code
    public var routeNotFound: ProvisioError.Code
    public var methodNotAllowed: ProvisioError.Code
    /// No `Authorization: Bearer` header, or one that is not that shape.
    public var missingCredentials: ProvisioError.Code
    public var internalError: ProvisioError.Code
    /// Whether a refusal that leaves the body unread (413, 408) says `Connection: close`: only
    /// where the server drains and then closes such a connection itself, so the client reads the
    /// answer rather than a reset.
    public var closesUnreadConnections: Bool
    /// A value outside a field's documented set (`field` names it): the field's own refusal,
    /// where it has one; otherwise `invalidRequest`.
    public var valueRefusal: @Sendable (_ field: String) -> ProvisioError?
    /// A path or query parameter the generated code could not read (its decoding error has an
    /// empty coding path): the service's refusal, where it says more than `invalidParameter`.
    public var parameterRefusal: @Sendable (ServerError, DecodingError) -> ProvisioError?
    /// Codes of status 500 and above that name a state the operator set up (a connector not
    /// configured), not a fault: logged as a warning, never as a failed request.
    public var expectedStates: Set<ProvisioError.Code>
    /// Top-level text fields whose value may span lines (line feeds and carriage returns, no
    /// other control character): a PEM key is the one such text.
    public var multilineFields: Set<String>

    public init(
        invalidJSON: ProvisioError.Code, duplicateKey: ProvisioError.Code, invalidRequest: ProvisioError.Code,
        unknownField: ProvisioError.Code, invalidParameter: ProvisioError.Code, payloadTooLarge: ProvisioError.Code,
        requestTimeout: ProvisioError.Code, routeNotFound: ProvisioError.Code, methodNotAllowed: ProvisioError.Code,
        missingCredentials: ProvisioError.Code, internalError: ProvisioError.Code, closesUnreadConnections: Bool,
        valueRefusal: @escaping @Sendable (_ field: String) -> ProvisioError?,
        parameterRefusal: @escaping @Sendable (ServerError, DecodingError) -> ProvisioError?,
        expectedStates: Set<ProvisioError.Code> = [], multilineFields: Set<String> = []
    ) {
        self.invalidJSON = invalidJSON
        self.duplicateKey = duplicateKey
        self.invalidRequest = invalidRequest
        self.unknownField = unknownField
        self.invalidParameter = invalidParameter
        self.payloadTooLarge = payloadTooLarge
        self.requestTimeout = requestTimeout
        self.routeNotFound = routeNotFound
        self.methodNotAllowed = methodNotAllowed
        self.missingCredentials = missingCredentials
        self.internalError = internalError
        self.closesUnreadConnections = closesUnreadConnections
        self.valueRefusal = valueRefusal
        self.parameterRefusal = parameterRefusal
        self.expectedStates = expectedStates
        self.multilineFields = multilineFields
    }

    /// How an error answer is logged: a refusal of the request (4xx) at info, an expected
    /// state at warning, anything else of 500 and above at error, the level an on-call alert
    /// and the test suites treat as a server fault.
    public func logLevel(for code: ProvisioError.Code) -> Logger.Level {
        if code.status.rawValue < 500 { return .info }
        return expectedStates.contains(code) ? .warning : .error
    }

    /// The strict parser's refusal of a body, in this dialect (its message kept: it names a byte
    /// offset, never the body).
    public func bodyRefusal(_ parserError: ProvisioError) -> ProvisioError {
        ProvisioError(parserError.code == .duplicateJSONKey ? duplicateKey : invalidJSON, parserError.message)
    }

    public func internalFailure() -> ProvisioError {
        ProvisioError(internalError, "The server could not complete the request.")
    }
}
