import Foundation
import ProvisioCore
import SQLKit

extension SQLProvisioStore: MDESExchangeStore {
    public func claimMDESExchange(_ claim: MDESExchangeClaim, staleBefore: Date) async throws -> MDESExchangeClaimResult {
        // A first request (nearly every one) is one statement, which both engines run
        // atomically: of two servers, one inserts, and the other reads what it left.
        for _ in 0..<3 {
            let inserted = try await handle.write { database in
                try await database.raw(
                    """
                    INSERT INTO mdes_exchanges (tenant_id, request_key, operation, body_digest, claim_id, claimed_at)
                    VALUES (\(bind: claim.tenantID), \(bind: claim.requestKey), \(bind: claim.operation),
                        \(bind: claim.bodyDigest), \(bind: claim.claimID), \(bind: claim.claimedAt.epochMilliseconds))
                    ON CONFLICT (tenant_id, request_key) DO NOTHING
                    RETURNING claim_id
                    """
                ).first() != nil
            }
            if inserted { return .claimed }
            // Committed before the insert saw it, so any connection reads it now, unless its
            // owner failed and released it meanwhile: then claim again.
            guard
                let row = try await handle.read({ database in
                    try await database.raw(
                        """
                        SELECT * FROM mdes_exchanges
                        WHERE tenant_id = \(bind: claim.tenantID) AND request_key = \(bind: claim.requestKey)
                        """
                    ).first()
                })
            else { continue }
            return try await resolveClaim(claim, against: row, staleBefore: staleBefore)
        }
        throw ProvisioError(.internalError, "An MDES request claim kept vanishing.")
    }

    /// What an earlier claim of the same `requestId` means for this one.
    private func resolveClaim(_ claim: MDESExchangeClaim, against row: any SQLRow, staleBefore: Date) async throws
        -> MDESExchangeClaimResult
    {
        let owner = try row.decode(column: "claim_id", as: String.self)
        if owner == claim.claimID { return .claimed }
        let digest = try row.decode(column: "body_digest", as: String.self)
        let operation = try row.decode(column: "operation", as: String.self)
        guard ConstantTime.equal(digest, claim.bodyDigest), operation == claim.operation else { return .reusedWithOtherBody }
        if let status = try row.decode(column: "status", as: Int?.self),
            let answer = try row.decode(column: "answer", as: String?.self)
        {
            return .answered(status: status, answer: answer)
        }
        guard try Self.date(row, "claimed_at") < staleBefore else { return .inProgress }
        // Its owner crashed before answering: take the claim over, unless another did (or it
        // answered meanwhile: a retry then finds the answer).
        let taken = try await handle.write { database in
            try await database.raw(
                """
                UPDATE mdes_exchanges SET claim_id = \(bind: claim.claimID), claimed_at = \(bind: claim.claimedAt.epochMilliseconds)
                WHERE tenant_id = \(bind: claim.tenantID) AND request_key = \(bind: claim.requestKey)
                    AND claim_id = \(bind: owner) AND status IS NULL
                RETURNING claim_id
                """
            ).first() != nil
        }
        return taken ? .claimed : .inProgress
    }

    public func completeMDESExchange(_ claim: MDESExchangeClaim, status: Int, answer: String, with pending: PendingWrites)
        async throws
    {
        let writes = pending.take()
        try await handle.transaction { database in
            for write in writes { try await write(database) }
            let stored =
                try await database.raw(
                    """
                    UPDATE mdes_exchanges SET status = \(bind: status), answer = \(bind: answer)
                    WHERE tenant_id = \(bind: claim.tenantID) AND request_key = \(bind: claim.requestKey)
                        AND claim_id = \(bind: claim.claimID)
                    RETURNING claim_id
                    """
                ).first() != nil
            // Another server took the claim over (this one ran past the lease) and runs the
            // request again: what this one deferred must not be written twice.
            if !stored && !writes.isEmpty {
                throw ProvisioError(.internalError, "An MDES request's claim was taken over before its answer was stored.")
            }
        }
    }

    public func releaseMDESExchange(_ claim: MDESExchangeClaim) async throws {
        try await handle.write { database in
            try await database.raw(
                """
                DELETE FROM mdes_exchanges
                WHERE tenant_id = \(bind: claim.tenantID) AND request_key = \(bind: claim.requestKey)
                    AND claim_id = \(bind: claim.claimID) AND status IS NULL
                """
            ).run()
        }
    }

    public func mdesActivationCode(tenantID: String, tokenUniqueReference: String) async throws -> MDESActivationCodeRecord? {
        try await handle.read { database in
            try await database.raw(
                """
                SELECT * FROM mdes_activation_codes
                WHERE tenant_id = \(bind: tenantID) AND token_unique_reference = \(bind: tokenUniqueReference)
                """
            ).first().map { row in
                MDESActivationCodeRecord(
                    tenantID: try row.decode(column: "tenant_id", as: String.self),
                    tokenUniqueReference: try row.decode(column: "token_unique_reference", as: String.self),
                    codeDigest: try row.decode(column: "code_digest", as: String.self),
                    expiresAt: try Self.date(row, "expires_at"),
                    failures: try row.decode(column: "failures", as: Int.self),
                    state: MDESActivationCodeRecord.State(rawValue: try row.decode(column: "state", as: String.self)) ?? .void,
                    createdAt: try Self.date(row, "created_at"))
            }
        }
    }

    public func putMDESActivationCode(_ record: MDESActivationCodeRecord) async throws {
        try await handle.write { database in
            try await database.raw(
                """
                INSERT INTO mdes_activation_codes (tenant_id, token_unique_reference, code_digest, expires_at, failures, state,
                    created_at)
                VALUES (\(bind: record.tenantID), \(bind: record.tokenUniqueReference), \(bind: record.codeDigest),
                    \(bind: record.expiresAt.epochMilliseconds), \(bind: record.failures), \(bind: record.state.rawValue),
                    \(bind: record.createdAt.epochMilliseconds))
                ON CONFLICT (tenant_id, token_unique_reference) DO UPDATE SET code_digest = excluded.code_digest,
                    expires_at = excluded.expires_at, failures = excluded.failures, state = excluded.state,
                    created_at = excluded.created_at
                """
            ).run()
        }
    }

    public func updateMDESActivationCode(_ record: MDESActivationCodeRecord, expectedFailures: Int) async throws -> Bool {
        try await handle.write { database in
            try await database.raw(
                """
                UPDATE mdes_activation_codes SET failures = \(bind: record.failures), state = \(bind: record.state.rawValue)
                WHERE tenant_id = \(bind: record.tenantID) AND token_unique_reference = \(bind: record.tokenUniqueReference)
                    AND code_digest = \(bind: record.codeDigest) AND failures = \(bind: expectedFailures) AND state = 'live'
                RETURNING failures
                """
            ).first() != nil
        }
    }
}
