import Foundation
import ProvisioCore
import ProvisioCrypto
import SQLKit

/// Moves every sealed record (card PANs, webhook signing secrets, network API keys and MDES signing keys,
/// MDES issuer keys, Google Pay issuer signing keys, stored idempotent answers) under the keyring's active
/// key-encryption key, so the previous key can be retired. Only data keys are re-wrapped; no
/// PAN is decrypted. Safe to run while servers are up (each row is one conditional update).
public struct VaultRotation: Sendable {
    let handle: any DatabaseHandle
    let vault: PANVault

    public init(handle: any DatabaseHandle, vault: PANVault) {
        self.handle = handle
        self.vault = vault
    }

    public struct Report: Sendable, Equatable {
        public var cards = 0
        public var webhookSecrets = 0
        public var networkKeys = 0
        public var mdesIssuerKeys = 0
        public var googlePaySigningKeys = 0
        public var idempotentAnswers = 0
    }

    /// Every column that holds a vault record (NULLs are skipped by the LIKE filters).
    static let sealedColumns = [
        ("cards", "pan_vault_record"), ("cards", "cardholder_phone_vault_record"),
        ("cards", "cardholder_email_vault_record"), ("webhook_endpoints", "secret_vault_record"),
        ("webhook_endpoints", "previous_secret_vault_record"),
        ("tenant_settings", "network_api_key_vault_record"), ("tenant_settings", "network_oauth_signing_key_vault_record"),
        ("mdes_issuer_keys", "private_key_vault_record"), ("google_pay_signing_keys", "secret_key_vault_record"),
        ("idempotency_keys", "response_body"),
    ]

    public func rewrapAll() async throws -> Report {
        var report = Report()
        report.cards =
            try await rewrap(table: "cards", keyColumns: ["id"], recordColumn: "pan_vault_record")
            + rewrap(table: "cards", keyColumns: ["id"], recordColumn: "cardholder_phone_vault_record")
            + rewrap(table: "cards", keyColumns: ["id"], recordColumn: "cardholder_email_vault_record")
        report.webhookSecrets =
            try await rewrap(table: "webhook_endpoints", keyColumns: ["id"], recordColumn: "secret_vault_record")
            + rewrap(table: "webhook_endpoints", keyColumns: ["id"], recordColumn: "previous_secret_vault_record")
        report.networkKeys =
            try await rewrap(table: "tenant_settings", keyColumns: ["tenant_id"], recordColumn: "network_api_key_vault_record")
            + rewrap(table: "tenant_settings", keyColumns: ["tenant_id"], recordColumn: "network_oauth_signing_key_vault_record")
        report.mdesIssuerKeys = try await rewrap(
            table: "mdes_issuer_keys", keyColumns: ["tenant_id", "fingerprint"], recordColumn: "private_key_vault_record")
        report.googlePaySigningKeys = try await rewrap(
            table: "google_pay_signing_keys", keyColumns: ["tenant_id", "fingerprint"], recordColumn: "secret_key_vault_record")
        report.idempotentAnswers = try await rewrap(
            table: "idempotency_keys", keyColumns: ["scope", "idempotency_key"], recordColumn: "response_body")
        return report
    }

    /// How many stored records are still wrapped under `keyID`.
    public func recordsUsing(keyID: String) async throws -> Int {
        let prefix = "\(VaultRecord.formatVersion).\(keyID).%"
        return try await handle.read { database in
            var total = 0
            for (table, column) in Self.sealedColumns {
                let row = try await database.raw(
                    "SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE \(unsafeRaw: column) LIKE \(bind: prefix)"
                ).first()
                total += try row?.decode(column: "n", as: Int.self) ?? 0
            }
            return total
        }
    }

    private func rewrap(table: String, keyColumns: [String], recordColumn: String) async throws -> Int {
        let activePrefix = "\(VaultRecord.formatVersion).\(vault.keyring.active.id).%"
        let selectKeys = keyColumns.enumerated().map { "\($0.element) AS k\($0.offset)" }.joined(separator: ", ")
        let rows = try await handle.read { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: selectKeys), \(unsafeRaw: recordColumn) AS record FROM \(unsafeRaw: table)
                WHERE \(unsafeRaw: recordColumn) NOT LIKE \(bind: activePrefix)
                """
            ).all().map { row in
                (
                    try keyColumns.indices.map { try row.decode(column: "k\($0)", as: String.self) },
                    try row.decode(column: "record", as: String.self)
                )
            }
        }
        var moved = 0
        for (keys, serialized) in rows {
            let rewrapped = try vault.rewrap(try VaultRecord(serialized: serialized))
            try await handle.write { database in
                var query = SQLQueryString(
                    "UPDATE \(unsafeRaw: table) SET \(unsafeRaw: recordColumn) = \(bind: rewrapped.serialized)")
                query.appendInterpolation(unsafeRaw: " WHERE ")
                for (column, value) in zip(keyColumns, keys) {
                    query.appendInterpolation(unsafeRaw: "\(column) = ")
                    query.appendInterpolation(bind: value)
                    query.appendInterpolation(unsafeRaw: " AND ")
                }
                query.appendInterpolation(unsafeRaw: "\(recordColumn) = ")
                query.appendInterpolation(bind: serialized)
                try await database.raw(query).run()
            }
            moved += 1
        }
        return moved
    }
}
