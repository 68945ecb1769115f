import Hummingbird
import ProvisioCore

/// Refuses a query parameter the matched route does not declare, and one given twice, instead
/// of ignoring it (the generated code reads only the names it knows): a misspelt filter must
/// not quietly return everything. Only declared names are ever repeated in a message.
public struct StrictQueryMiddleware<Context: WireRequestContext>: RouterMiddleware {
    /// The query parameters each route takes, by its path as the router names it
    /// (`/sandbox/v1/passes`); a route not listed takes none.
    public let parameters: [String: Set<String>]
    public let dialect: WireDialect

    public init(parameters: [String: Set<String>], dialect: WireDialect) {
        self.parameters = parameters
        self.dialect = dialect
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let allowed = context.endpointPath.flatMap { parameters[$0] } ?? []
        var seen: Set<String> = []
        for (name, _) in request.uri.queryParameters {
            let name = String(name)
            guard allowed.contains(name) else {
                let accepted = allowed.sorted().joined(separator: ", ")
                throw ProvisioError(
                    dialect.invalidParameter,
                    "The query has a parameter this route does not take"
                        + (accepted.isEmpty ? "; it takes none." : "; it takes \(accepted)."))
            }
            // (`name` is a declared one here.)
            guard seen.insert(name).inserted else {
                throw ProvisioError(dialect.invalidParameter, "The query parameter '\(name)' is given twice.")
            }
        }
        return try await next(request, context)
    }
}
