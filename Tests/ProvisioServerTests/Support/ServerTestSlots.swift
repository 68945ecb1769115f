import Foundation

/// How many tests with a database (and, nearly always, a live server) run at once.
///
/// Swift Testing starts every test of the run together. On a two-core machine that put a few
/// hundred servers, databases and webhook receivers on the same cores at once: each test then
/// took a hundred seconds of wall time, and anything a test holds to a deadline of seconds (the
/// issuer's 5 s decision budget, an HTTP client's deadline, a sandbox listener's answer) missed it
/// at random. The slots keep the machine busy without drowning it; a test waiting for a slot
/// uses no CPU and starts none of its clocks. `PROVISIO_TEST_SERVER_SLOTS` overrides the width.
actor ServerTestSlots {
    static let shared = ServerTestSlots(width: ServerTestSlots.configuredWidth)

    /// Set while a task holds a slot: a test that opens a second database (two servers on one
    /// PostgreSQL) uses the slot it holds rather than waiting for a second one, which could
    /// deadlock with every slot held by a test waiting for its second.
    @TaskLocal static var holding = false

    static var configuredWidth: Int {
        if let text = ProcessInfo.processInfo.environment["PROVISIO_TEST_SERVER_SLOTS"], let width = Int(text), width > 0 {
            return width
        }
        return max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
    }

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { free = width }

    /// Runs `body` in a slot, waiting for one if they are all taken.
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        if holding { return try await body() }
        await shared.acquire()
        do {
            let value = try await $holding.withValue(true) { try await body() }
            await shared.release()
            return value
        } catch {
            await shared.release()
            throw error
        }
    }

    private func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            // The slot passes straight to the longest waiter.
            waiting.removeFirst().resume()
        }
    }
}
