import OpenAPIRuntime
import ProvisioCore

/// Runs calls of a generated client (with `WireClientMiddleware`) and throws only the client's
/// own `ProvisioError`s: the generated code wraps whatever goes wrong in a `ClientError` that
/// describes the operation's input (a body may hold a card number), so none escapes.
public enum WireCall {
    public static func perform<Answer: Sendable>(
        _ what: String, failures: WireClientFailures, _ call: () async throws -> Answer
    ) async throws -> Answer {
        do {
            return try await call()
        } catch let error as ClientError {
            switch error.underlyingError {
            case WireAnswer.refused(let status, let body): throw failures.refused(what, status, body)
            case WireAnswer.malformed, is DecodingError: throw failures.malformed(what)
            case let cause where error.response == nil: throw failures.unreachable(what, cause)
            default: throw failures.malformed(what)
            }
        } catch let error as ProvisioError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // An answer of a documented status other than the one expected (`.ok` on a `.created`).
            throw failures.malformed(what)
        }
    }
}
