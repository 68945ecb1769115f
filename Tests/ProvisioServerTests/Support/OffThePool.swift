import Dispatch

/// Runs `work` on a Dispatch thread and awaits it. RSA key generation takes seconds in a debug
/// build: on the cooperative pool (two threads on a two-core machine) it would hold a thread
/// that every loopback server of the tests running in parallel needs, and their calls would
/// time out. A key shared by several tests is made once this way (`Task` caches it) and
/// awaited, never waited for while blocking a thread.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try work() }) }
    }
}
