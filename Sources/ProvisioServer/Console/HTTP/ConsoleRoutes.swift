import Foundation
import HTTPTypes
import Hummingbird
import ProvisioCore

/// The support console at `/console`, served by `provisio serve` itself: server-rendered pages
/// over the same services as the API (a token action goes through `TokenService` and the
/// network connector exactly as `POST /v1/tokens/{id}/transitions` does). Viewers read, support
/// acts on tokens and replays webhooks, admins change settings, API keys and operators; an
/// operator only ever sees their own tenant.
struct ConsoleRoutes: Sendable {
    let services: ServerServices
    let pages: ConsolePages
    let credentials: ConsoleCredentials
    /// Behind a declared TLS proxy, sign-in counts the address it forwards.
    let behindProxy: Bool

    var operators: OperatorService { services.operators }

    func register(on router: Router<ProvisioRequestContext>) {
        let console = router.group("console").add(middleware: ConsoleErrorMiddleware(pages: pages))
        console.get("console.css") { _, _ in pages.css() }
        console.get("sign-in") { request, context in try await signInPage(request, context) }
        console.post("sign-in") { request, context in try await signIn(request, context) }

        let signedIn = console.group().add(middleware: ConsoleSessionMiddleware(operators: operators, credentials: credentials))
        signedIn.post("sign-out") { request, context in try await signOut(request, context) }
        signedIn.get { request, context in try await searchPage(request, context) }
        signedIn.get("cards") { request, context in try await searchPage(request, context) }
        signedIn.get("tokens") { request, context in try await searchPage(request, context) }
        signedIn.get("cards/:id") { request, context in try await cardPage(request, context) }
        signedIn.get("tokens/:id") { request, context in try await tokenPage(request, context) }
        signedIn.post("tokens/:id/actions") { request, context in try await tokenAction(request, context) }
        signedIn.get("webhook-deliveries") { request, context in try await deliveriesPage(request, context) }
        signedIn.get("webhook-deliveries/:id") { request, context in try await deliveryPage(request, context) }
        signedIn.post("webhook-deliveries/:id/replay") { request, context in try await replay(request, context) }
        signedIn.get("settings") { request, context in try await settingsPage(request, context) }
        signedIn.post("settings/decisioning") { request, context in try await saveDecisioning(request, context) }
        signedIn.get("audit") { request, context in try await auditPage(request, context) }
        signedIn.get("card-products") { request, context in try await cardProductsPage(request, context) }
        signedIn.get("api-keys") { request, context in try await apiKeysPage(request, context) }
        signedIn.post("api-keys") { request, context in try await createAPIKey(request, context) }
        signedIn.post("api-keys/:id/revoke") { request, context in try await revokeAPIKey(request, context) }
        signedIn.get("operators") { request, context in try await operatorsPage(request, context) }
        signedIn.post("operators") { request, context in try await createOperator(request, context) }
        signedIn.post("operators/:id/disable") { request, context in try await disableOperator(request, context) }
    }

    // MARK: Shared

    /// The signed-in operator (set by `ConsoleSessionMiddleware` on every signed-in route).
    static func signedIn(_ context: ProvisioRequestContext) throws -> ConsoleSignedIn {
        guard let signedIn = context.console else {
            throw ProvisioError(.consoleSessionInvalid, "Your session has ended; sign in again.")
        }
        return signedIn
    }

    /// What every signed-in page shows: its title, the operator, the sign-out form's token.
    static func base(_ title: String, _ signedIn: ConsoleSignedIn) -> [String: Any] {
        [
            "title": title, "csrf": signedIn.csrf,
            "operator": ["email": signedIn.operatorRecord.email, "role": signedIn.role.rawValue],
        ]
    }

    /// A posted form, its CSRF token checked against the session's, the operator's role checked
    /// against what the action needs (in that order: a forged form learns nothing).
    static func form(
        _ request: Request, _ context: ProvisioRequestContext, role required: OperatorRole, to action: String
    ) async throws -> (ConsoleForm, ConsoleSignedIn) {
        let signedIn = try signedIn(context)
        let form = try await readForm(request)
        try ConsoleCredentials.requireMatch(form["csrf"], signedIn.csrf)
        try signedIn.role.require(required, to: action)
        return (form, signedIn)
    }

    static func readForm(_ request: Request) async throws -> ConsoleForm {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: ConsoleForm.maximumBytes)
        } catch {
            throw ProvisioError(.payloadTooLarge, "The form is larger than \(ConsoleForm.maximumBytes) bytes.")
        }
        return try ConsoleForm(encoded: String(buffer: body))
    }

    static func query(_ request: Request) throws -> ConsoleForm {
        try ConsoleForm(query: request.uri.query)
    }

    static func pathID(_ context: ProvisioRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), (1...64).contains(id.count) else {
            throw ProvisioError(.invalidParameter, "The id in the path is not valid.")
        }
        return id
    }

    /// Runs a change with the operator's reason standing in the audit log.
    static func withReason<T: Sendable>(_ reason: String?, _ body: () async throws -> T) async throws -> T {
        var audit = AuditContext.current
        audit.reason = reason
        return try await AuditContext.$current.withValue(audit) { try await body() }
    }
}
