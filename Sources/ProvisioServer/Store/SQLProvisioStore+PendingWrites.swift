import ProvisioCore
import SQLKit

extension SQLProvisioStore {
    /// `body` in a transaction of its own or, while the running request defers its writes
    /// (`PendingWrites.current`), kept to run in the transaction that ends the request. For
    /// writes whose caller needs nothing back. The audit context is the one at this call, as it
    /// would have been.
    func deferrableTransaction(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        if let pending = PendingWrites.current {
            let audit = AuditContext.current
            let kept = pending.add { database in
                try await AuditContext.$current.withValue(audit) { try await body(database) }
            }
            if kept { return }
        }
        try await handle.transaction(body)
    }
}
