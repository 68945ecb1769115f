import Foundation
import ProvisioCore
import Testing

@testable import ProvisioServer

@Suite struct GroupCommitTests {
    struct Refused: Error {}

    /// Records each group written; the first write is held until the others have queued.
    final class Recorder: Sendable {
        let groups = Locked([[Int]]())
        let release = Locked<CheckedContinuation<Void, Never>?>(nil)
        let holdFirst: Bool
        let refused: Int?

        init(holdFirst: Bool, refusing refused: Int? = nil) {
            self.holdFirst = holdFirst
            self.refused = refused
        }

        func write(_ items: [Int]) async throws {
            let first = groups.withLock { groups in
                groups.append(items)
                return groups.count == 1
            }
            if first && holdFirst {
                await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
            }
            if let refused, items.contains(refused) { throw Refused() }
        }

        func releaseFirst() async throws {
            for _ in 0..<1000 {
                if let continuation = release.withLock({ $0.take() }) { return continuation.resume() }
                try await Task.sleep(for: .milliseconds(1))
            }
            Issue.record("the first write never started")
        }
    }

    @Test func alone_anItemIsWrittenAtOnceByItself() async throws {
        let recorder = Recorder(holdFirst: false)
        let commit = GroupCommit<Int>(write: recorder.write)
        try await commit.submit(1)
        try await commit.submit(2)
        #expect(recorder.groups.value == [[1], [2]])
    }

    @Test func whileOneGroupIsWrittenTheNextOnesQueueAndGoTogether() async throws {
        let recorder = Recorder(holdFirst: true)
        let commit = GroupCommit<Int>(maximumGroup: 40, write: recorder.write)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await commit.submit(0) }
            try await Task.sleep(for: .milliseconds(20))
            for item in 1...100 { group.addTask { try await commit.submit(item) } }
            // Let all 100 queue behind the held write, then let it finish.
            for _ in 0..<2000 where commit.queuedCount < 100 { try await Task.sleep(for: .milliseconds(1)) }
            try await recorder.releaseFirst()
            try await group.waitForAll()
        }
        let groups = recorder.groups.value
        #expect(groups.first == [0])
        #expect(groups.dropFirst().map(\.count) == [40, 40, 20], "groups of at most 40: \(groups.map(\.count))")
        #expect(groups.flatMap { $0 }.sorted() == Array(0...100), "each item written once")
    }

    @Test func aFailingGroupIsRetriedItemByItemSoOnlyTheBadItemFails() async throws {
        let recorder = Recorder(holdFirst: true, refusing: 13)
        let commit = GroupCommit<Int>(write: recorder.write)
        let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            group.addTask { ((try? await commit.submit(0)) != nil ? (0, true) : (0, false)) }
            try await Task.sleep(for: .milliseconds(20))
            for item in 10...15 {
                group.addTask { ((try? await commit.submit(item)) != nil ? (item, true) : (item, false)) }
            }
            for _ in 0..<1000 where commit.queuedCount < 6 { try await Task.sleep(for: .milliseconds(1)) }
            try await recorder.releaseFirst()
            return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes == [0: true, 10: true, 11: true, 12: true, 13: false, 14: true, 15: true])
        // The group of six failed, then each went alone.
        #expect(recorder.groups.value.filter { $0.count == 1 }.count == 7, "\(recorder.groups.value)")
    }
}
