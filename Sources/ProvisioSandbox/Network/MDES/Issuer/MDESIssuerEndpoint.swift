import Foundation
import ProvisioCore

/// Where the issuer serves MDES's Issuer Outbound API, read from the base URL it registered with
/// Mastercard: `https://host[:port][/prefix]/mdes/{tenant_id}/issuerServices/1/0`. The generated
/// client takes the part before `/mdes/` as its server and the tenant as a path parameter.
public struct MDESIssuerEndpoint: Sendable, Hashable {
    public let serverURL: URL
    public let tenantID: String

    public init(baseURL: String) throws {
        guard let components = URLComponents(string: baseURL), components.scheme?.lowercased() == "https",
            components.host?.isEmpty == false, components.query == nil
        else {
            throw ProvisioError(
                .sandboxMdesKeyInvalid, "The issuer's MDES URL must be https://host[:port]/mdes/{tenant_id}/issuerServices/1/0.")
        }
        let segments = components.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let index = segments.lastIndex(of: "mdes"), index + 1 < segments.count,
            [[], ["issuerServices", "1", "0"]].contains(Array(segments[(index + 2)...]))
        else {
            throw ProvisioError(
                .sandboxMdesKeyInvalid, "The issuer's MDES URL must end in /mdes/{tenant_id}[/issuerServices/1/0].")
        }
        var server = components
        server.path = segments[..<index].isEmpty ? "" : "/" + segments[..<index].joined(separator: "/")
        guard let url = server.url else {
            throw ProvisioError(.sandboxMdesKeyInvalid, "The issuer's MDES URL is not a URL.")
        }
        self.serverURL = url
        self.tenantID = segments[index + 1]
    }
}
