import Foundation
import ProvisioHTTP

/// The JSON Provisio writes itself (errors, webhook payloads, the sealed card for the network):
/// the wire's own (`WireCoding`) — compact, sorted keys, unescaped slashes and ISO 8601 dates,
/// byte-for-byte stable, as the generated operations answer.
enum JSONCoding {
    static var encoder: JSONEncoder { WireCoding.encoder }
}
