import ProvisioCore
import Testing

@testable import ProvisioServer

@Suite struct ConnectionLenderTests {
    /// Each connection has one borrower at a time, and borrowers beyond the set wait their turn
    /// instead of failing.
    @Test func aConnectionIsNeverLentTwiceAtOnce() async throws {
        let lender = ConnectionLender([0, 1])
        let borrowed = Locked([Int: Int]())
        let most = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    try await lender.with { connection in
                        let holders = borrowed.withLock { holders -> Int in
                            holders[connection, default: 0] += 1
                            return holders[connection]!
                        }
                        most.withLock { $0 = max($0, holders) }
                        await Task.yield()
                        borrowed.withLock { $0[connection, default: 0] -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(most.value == 1)
        #expect(borrowed.value == [0: 0, 1: 0])
    }

    @Test func aFailingBorrowerGivesTheConnectionBack() async throws {
        struct Refusal: Error {}
        let lender = ConnectionLender(["only"])
        await #expect(throws: Refusal.self) { try await lender.with { _ in throw Refusal() } }
        #expect(try await lender.with { $0 } == "only")
    }
}
