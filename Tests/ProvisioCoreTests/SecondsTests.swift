import Foundation
import ProvisioCore
import Testing

/// `Seconds` stands in for `Duration` in the code an iOS app links: the same waits, the same text.
@Suite struct SecondsTests {
    @Test func nanosecondsRoundUpAndNeverTrap() {
        #expect(Seconds.nanoseconds(15) == 15_000_000_000)
        #expect(Seconds.nanoseconds(0.080) == 80_000_000)
        #expect(Seconds.nanoseconds(0.3) == 300_000_000)
        #expect(Seconds.nanoseconds(1e-10) == 1, "a wait is never shorter than asked")
        #expect(Seconds.nanoseconds(0) == 0)
        #expect(Seconds.nanoseconds(-5) == 0)
        #expect(Seconds.nanoseconds(.nan) == 0)
        #expect(Seconds.nanoseconds(.infinity) == .max)
        #expect(Seconds.nanoseconds(1e12) == .max)
    }

    @Test func nanosecondsMatchWhatDurationWaited() {
        // The deadlines and timeouts ProvisioKit and ProvisioClient had as `Duration`s.
        let before: [(Duration, TimeInterval)] = [
            (.seconds(15), 15), (.seconds(19), 19), (.milliseconds(80), 0.080), (.milliseconds(300), 0.3),
        ]
        for (duration, seconds) in before {
            let (whole, attoseconds) = duration.components
            let nanoseconds = UInt64(whole) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
            #expect(Seconds.nanoseconds(seconds) == nanoseconds, "\(duration)")
        }
    }

    @Test func textReadsAsDurationDid() {
        // Messages such as "Provisio did not answer within 15.0 seconds." keep their wording.
        #expect(Seconds.text(15) == "\(Duration.seconds(15))")
        #expect(Seconds.text(0.080) == "\(Duration.milliseconds(80))")
        #expect(Seconds.text(0.3) == "\(Duration.milliseconds(300))")
    }

    @Test func sleepWaitsAtLeastAndStopsOnCancellation() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        try await Seconds.sleep(0.05)
        #expect(clock.now - start >= .milliseconds(50))

        let sleeper = Task { try await Seconds.sleep(60) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
}
