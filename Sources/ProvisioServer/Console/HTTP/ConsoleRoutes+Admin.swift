import Foundation
import HTTPTypes
import Hummingbird
import ProvisioCore

/// The tenant's decisioning settings, audit log, API keys and operators. Everyone reads them;
/// only admins change them.
extension ConsoleRoutes {
    func settingsPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let signedIn = try Self.signedIn(context)
        let settings = try await services.settings.decisioning(tenantID: signedIn.tenantID)
        var values = Self.base("Settings", signedIn)
        values["canEdit"] = signedIn.role >= .admin
        values["settings"] = [
            "minimumDeviceScore": String(settings.rules.minimumDeviceScore),
            "minimumAccountScore": String(settings.rules.minimumAccountScore),
            "declineAtOrBelowScore": String(settings.rules.declineAtOrBelowScore),
            "webhookTimeoutMs": String(settings.webhookTimeoutMilliseconds),
        ]
        if try Self.query(request)["done"] == "saved" { values["notice"] = "The settings are saved." }
        return pages.page("settings", values)
    }

    func saveDecisioning(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let (form, signedIn) = try await Self.form(request, context, role: .admin, to: "change settings")
        let reason = try form.reason()
        let device = try form.integer("minimum_device_score", in: 1...5)
        let account = try form.integer("minimum_account_score", in: 1...5)
        let decline = try form.integer("decline_at_or_below_score", in: 0...5)
        let timeout = try form.integer("webhook_timeout_ms", in: 100...5000)
        _ = try await Self.withReason(reason) {
            try await services.settings.updateDecisioning(tenantID: signedIn.tenantID) { settings in
                if let device { settings.rules.minimumDeviceScore = device }
                if let account { settings.rules.minimumAccountScore = account }
                if let decline { settings.rules.declineAtOrBelowScore = decline }
                if let timeout { settings.webhookTimeoutMilliseconds = timeout }
            }
        }
        return ConsolePages.redirect("/console/settings?done=saved")
    }

    func auditPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let signedIn = try Self.signedIn(context)
        let query = try Self.query(request)
        let filter = AuditFilter(targetType: query["target_type"], targetID: query["target_id"], actorID: query["actor_id"])
        let page = try await services.audit.events(
            tenantID: signedIn.tenantID, filter: filter, cursor: query["cursor"], limit: 50)
        var values = Self.base("Audit log", signedIn)
        values["auditEvents"] = page.items.map(ConsoleViews.audit)
        values["filter"] = [
            "targetType": filter.targetType ?? "", "targetID": filter.targetID ?? "", "actorID": filter.actorID ?? "",
        ]
        if let next = page.nextCursor {
            var items = [URLQueryItem(name: "cursor", value: next)]
            for (name, value) in [
                ("target_type", filter.targetType), ("target_id", filter.targetID), ("actor_id", filter.actorID),
            ] {
                if let value { items.append(URLQueryItem(name: name, value: value)) }
            }
            var components = URLComponents()
            components.path = "/console/audit"
            components.queryItems = items
            values["nextPage"] = components.string
        }
        return pages.page("audit", values)
    }

    func apiKeysPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        try await apiKeysPage(
            try Self.signedIn(context), notice: try Self.query(request)["done"] == "revoked" ? "The key is revoked." : nil)
    }

    private func apiKeysPage(_ signedIn: ConsoleSignedIn, notice: String? = nil, secret: String? = nil) async throws -> Response {
        var values = Self.base("API keys", signedIn)
        values["keys"] = try await services.access.apiKeys(tenantID: signedIn.tenantID).map(ConsoleViews.apiKey)
        values["canEdit"] = signedIn.role >= .admin
        if let notice { values["notice"] = notice }
        if let secret { values["secret"] = ["label": "The new key", "value": secret] }
        return pages.page("api-keys", values)
    }

    func createAPIKey(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let (form, signedIn) = try await Self.form(request, context, role: .admin, to: "create API keys")
        let scope = try APIKeyScope(wire: form["scope"] ?? "full")
        let (_, secret) = try await services.access.createAPIKey(
            tenantID: signedIn.tenantID, name: try form.require("name"), scope: scope)
        // Shown in this answer only (no redirect: the secret must not travel in a URL).
        return try await apiKeysPage(signedIn, secret: secret)
    }

    func revokeAPIKey(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let (_, signedIn) = try await Self.form(request, context, role: .admin, to: "revoke API keys")
        _ = try await services.access.revokeAPIKey(id: try Self.pathID(context), tenantID: signedIn.tenantID)
        return ConsolePages.redirect("/console/api-keys?done=revoked")
    }

    func operatorsPage(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let notice = try Self.query(request)["done"] == "disabled" ? "The operator is disabled and signed out." : nil
        return try await operatorsPage(try Self.signedIn(context), notice: notice)
    }

    private func operatorsPage(_ signedIn: ConsoleSignedIn, notice: String? = nil, secret: String? = nil) async throws
        -> Response
    {
        var values = Self.base("Operators", signedIn)
        values["operators"] = try await operators.operators(tenantID: signedIn.tenantID).map(ConsoleViews.operatorView)
        values["canEdit"] = signedIn.role >= .admin
        if let notice { values["notice"] = notice }
        if let secret { values["secret"] = ["label": "Their first password", "value": secret] }
        return pages.page("operators", values)
    }

    func createOperator(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let (form, signedIn) = try await Self.form(request, context, role: .admin, to: "create operators")
        let role = try OperatorRole(wire: form["role"] ?? "viewer")
        let (_, password) = try await operators.create(
            tenantID: signedIn.tenantID, email: try form.require("email"), role: role, password: nil)
        return try await operatorsPage(signedIn, secret: password)
    }

    func disableOperator(_ request: Request, _ context: ProvisioRequestContext) async throws -> Response {
        let (_, signedIn) = try await Self.form(request, context, role: .admin, to: "disable operators")
        _ = try await operators.disable(id: try Self.pathID(context), tenantID: signedIn.tenantID)
        return ConsolePages.redirect("/console/operators?done=disabled")
    }
}
