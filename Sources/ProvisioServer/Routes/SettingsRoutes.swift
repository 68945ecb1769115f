import Foundation
import Hummingbird
import ProvisioCore

/// The tenant's settings for the issuer's backend: decisioning and the card network.
struct SettingsRoutes {
    let settings: SettingsService

    func register(on group: RouterGroup<ProvisioRequestContext>) {
        group.get("settings/decisioning") { _, context in
            try JSONCoding.response(
                DecisioningWire(try await settings.decisioning(tenantID: try context.requirePrincipal().tenantID)))
        }
        group.put("settings/decisioning") { request, context in
            let body = try await JSONCoding.decode(DecisioningBody.self, from: request, context: context)
            let updated = try await settings.updateDecisioning(tenantID: try context.requirePrincipal().tenantID) {
                body.apply(to: &$0)
            }
            return try JSONCoding.response(DecisioningWire(updated))
        }
        group.get("settings/network") { _, context in
            try await network(tenantID: try context.requirePrincipal().tenantID)
        }
        group.put("settings/network") { request, context in
            let body = try await JSONCoding.decode(NetworkSettingsBody.self, from: request, context: context)
            let tenantID = try context.requirePrincipal().tenantID
            // The outbound policy speaks first: its codes say what is wrong with the address.
            try settings.validateNetworkURL(body.url)
            try await settings.setNetwork(try NetworkEndpoint(url: body.url, apiKey: body.apiKey), tenantID: tenantID)
            return try await network(tenantID: tenantID)
        }
        group.delete("settings/network") { _, context in
            let tenantID = try context.requirePrincipal().tenantID
            try await settings.setNetwork(nil, tenantID: tenantID)
            return try await network(tenantID: tenantID)
        }
    }

    private func network(tenantID: String) async throws -> Response {
        let current = try await settings.network(tenantID: tenantID)
        return try JSONCoding.response(NetworkSettingsWire(url: current?.url, source: current?.source ?? "none"))
    }
}
