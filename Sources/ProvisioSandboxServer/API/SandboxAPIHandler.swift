import Logging
import ProvisioCore
import ProvisioSandbox
import ProvisioSandboxAPI

/// The sandbox's API as its OpenAPI document declares it: each method turns the generated input
/// into the sandbox's own values once, asks the world (wallet, Apple's service, network), and
/// builds the generated output straight from the sandbox's values (one conversion per object,
/// `Wire/Schemas+Token.swift`, …). The methods live in one extension per area
/// (`SandboxAPIHandler+Tokens.swift`, …).
struct SandboxAPIHandler: APIProtocol {
    let world: SandboxHTTPWorld
    let logger: Logger

    /// A body in a content type the operation does not take (the generated code only hands over
    /// the documented ones, so this is a safety net).
    static func unreadableBody() -> ProvisioError {
        ProvisioError(.sandboxInvalidRequest, "The request body must be application/json.")
    }
}
