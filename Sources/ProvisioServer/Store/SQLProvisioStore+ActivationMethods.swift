import Foundation
import ProvisioCore
import SQLKit

extension SQLProvisioStore {
    public func activationMethods(tenantID: String) async throws -> ActivationMethodSettings {
        try await handle.read { database in
            guard
                let row = try await database.raw(
                    """
                    SELECT activation_customer_service_phone, activation_automated_phone, activation_app_identifier
                    FROM tenant_settings WHERE tenant_id = \(bind: tenantID)
                    """
                ).first()
            else { return .none }
            return ActivationMethodSettings(
                customerServicePhoneNumber: try row.decode(column: "activation_customer_service_phone", as: String?.self),
                automatedPhoneNumber: try row.decode(column: "activation_automated_phone", as: String?.self),
                appIdentifier: try row.decode(column: "activation_app_identifier", as: String?.self))
        }
    }

    public func saveActivationMethods(_ settings: ActivationMethodSettings, tenantID: String, at time: Date) async throws {
        try await handle.transaction { database in
            // All three at once (a PUT replaces them), in one statement two processes cannot split.
            try await database.raw(
                """
                INSERT INTO tenant_settings (tenant_id, activation_customer_service_phone, activation_automated_phone,
                    activation_app_identifier, updated_at)
                VALUES (\(bind: tenantID), \(bind: settings.customerServicePhoneNumber), \(bind: settings.automatedPhoneNumber),
                    \(bind: settings.appIdentifier), \(bind: time.epochMilliseconds))
                ON CONFLICT (tenant_id) DO UPDATE SET
                    activation_customer_service_phone = excluded.activation_customer_service_phone,
                    activation_automated_phone = excluded.activation_automated_phone,
                    activation_app_identifier = excluded.activation_app_identifier, updated_at = excluded.updated_at
                """
            ).run()
            try await Self.audit(
                AuditChange("settings.activation_methods.updated", target: "tenant", tenantID), tenantID: tenantID, at: time,
                in: database)
        }
    }
}
