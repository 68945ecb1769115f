import Foundation
import Testing

@testable import ProvisioCore

/// Collects delivered values across threads.
private final class Deliveries<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.value }
}

@Suite struct CompletionOnceTests {
    @Test func theFirstCallWinsAndTheOthersAreToldSo() {
        let deliveries = Deliveries<AuthorizationOutcome>()
        let once = CompletionOnce<AuthorizationOutcome> { deliveries.append($0) }
        #expect(!once.isCompleted)
        #expect(once.complete(.authorized))
        #expect(!once.complete(.canceled))
        #expect(!once.complete(.authorized))
        #expect(once.isCompleted)
        #expect(deliveries.all == [.authorized])
    }

    @Test func racingCallersDeliverExactlyOnce() async {
        let deliveries = Deliveries<Int>()
        let once = CompletionOnce<Int> { deliveries.append($0) }
        let winners = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<1000 { group.addTask { once.complete(index) } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(winners == 1)
        #expect(deliveries.all.count == 1)
    }

    @Test func theCompletionMayCallCompleteAgainWithoutDeadlock() {
        let deliveries = Deliveries<String>()
        let box = Deliveries<CompletionOnce<String>>()
        let once = CompletionOnce<String> { value in
            deliveries.append(value)
            #expect(box.all.first?.complete("again") == false)
        }
        box.append(once)
        #expect(once.complete("first"))
        #expect(deliveries.all == ["first"])
    }

    @Test func outcomesMirrorPassKit() {
        #expect(AuthorizationOutcome.allCases.map(\.rawValue) == ["authorized", "canceled"])
    }
}
