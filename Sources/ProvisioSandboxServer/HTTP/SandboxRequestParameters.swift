import Hummingbird
import ProvisioCore
import ProvisioSandbox

/// Path and query values, checked: a device that is not `phone` or `watch` is refused by name,
/// and a query parameter the route does not know is refused rather than ignored.
enum SandboxRequestParameters {
    static func path(_ name: String, in context: SandboxRequestContext) throws -> String {
        guard let value = context.parameters.get(name), !value.isEmpty else {
            throw SandboxJSON.invalid("The path needs a \(name).")
        }
        return value
    }

    static func deviceKind(_ value: String) throws -> SandboxDeviceKind {
        guard let kind = SandboxDeviceKind(rawValue: value) else {
            throw SandboxJSON.invalid("The device must be phone or watch.")
        }
        return kind
    }

    /// The query as a dictionary, after checking every name is one of `allowed` and appears once.
    static func query(of request: Request, allowed: Set<String>) throws -> [String: String] {
        var values: [String: String] = [:]
        for (name, value) in request.uri.queryParameters {
            let name = String(name)
            guard allowed.contains(name) else {
                let accepted = allowed.sorted().joined(separator: ", ")
                throw SandboxJSON.invalid(
                    "The query has a parameter this route does not take"
                        + (accepted.isEmpty ? "." : "; this route takes \(accepted)."))
            }
            guard values[name] == nil else { throw SandboxJSON.invalid("The query parameter '\(name)' is given twice.") }
            // (`name` is one of `allowed` here, a name the route declares.)
            values[name] = String(value)
        }
        return values
    }
}
