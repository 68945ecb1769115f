import Hummingbird
import ProvisioCore

/// Reads `Authorization: Bearer <token>` (the scheme word in any case). What the token means is
/// the service's: Provisio looks it up, the sandbox compares it with its one key.
public enum BearerAuthorization {
    public static func token(of request: Request, dialect: WireDialect) throws -> String {
        guard let header = request.headers[.authorization] else { throw missing(dialect) }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
            throw ProvisioError(dialect.missingCredentials, "The Authorization header must be 'Bearer <token>'.")
        }
        return String(parts[1])
    }

    public static func missing(_ dialect: WireDialect) -> ProvisioError {
        ProvisioError(dialect.missingCredentials, "Send an Authorization: Bearer header.")
    }
}
