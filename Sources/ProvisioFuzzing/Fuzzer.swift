import Dispatch
import Foundation
import ProvisioCore

/// One broken invariant, with everything needed to reproduce it.
public struct FuzzViolation: Sendable, Hashable, CustomStringConvertible {
    public var target: String
    public var seed: UInt64
    public var iteration: Int
    /// The corpus file when the input is an unmutated seed.
    public var seedName: String?
    public var input: [UInt8]
    public var reason: String
    /// The id of the already reported parser bug this violation is an instance of, if any.
    public var knownFinding: String?

    /// The `provisio-fuzz` arguments that run exactly this input again.
    public var reproduceArguments: String { "--target \(target) --seed \(seed) --iteration \(iteration)" }

    public var description: String {
        let origin = seedName.map { " (corpus seed \($0))" } ?? ""
        let kind = knownFinding.map { "KNOWN FINDING \($0):" } ?? "VIOLATION"
        return "\(kind) \(target) seed \(seed) iteration \(iteration)\(origin): \(reason)\n"
            + "  input (\(input.count) bytes, hex): \(FuzzHex.encode(input))\n"
            + "  reproduce: swift run -c release provisio-fuzz \(reproduceArguments)"
    }
}

/// The figures of one target's run.
public struct FuzzReport: Sendable {
    public struct SlowInput: Sendable, Hashable {
        public var iteration: Int
        public var duration: Duration
        public var size: Int
    }

    public var target: String
    public var seed: UInt64
    public var iterations = 0
    public var accepted = 0
    public var discarded = 0
    /// Refusals by error code.
    public var refusals: [String: Int] = [:]
    /// Every violation that is not a known finding, counted; the first `Fuzzer.maxRecordedViolations`
    /// are kept in `violations`.
    public var violationCount = 0
    public var violations: [FuzzViolation] = []
    /// Violations that are instances of known findings (`FuzzKnownFindings`), by finding id, and the
    /// first instance of each.
    public var knownFindings: [String: Int] = [:]
    public var knownFindingExamples: [FuzzViolation] = []
    public var slowest: SlowInput?
    public var elapsed: Duration = .zero

    public var refused: Int { refusals.values.reduce(0, +) }

    /// One line: `json: 20000 iterations in 3.1 s, 812 accepted, 19188 refused (invalid_json 18000, …), …`.
    public var summary: String {
        let codes = refusals.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        var line = "\(target): \(iterations) iterations in \(Self.seconds(elapsed)), \(accepted) accepted, \(refused) refused"
        if !codes.isEmpty { line += " (\(codes))" }
        if discarded > 0 { line += ", \(discarded) discarded" }
        if let slowest {
            line += "; slowest \(Self.milliseconds(slowest.duration)) (iteration \(slowest.iteration), \(slowest.size) bytes)"
        }
        line += "; \(violationCount) violation\(violationCount == 1 ? "" : "s")"
        if !knownFindings.isEmpty {
            line +=
                ", known findings: "
                + knownFindings.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                .joined(separator: ", ")
        }
        return line
    }

    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.2f s", value)
    }

    static func milliseconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.1f ms", value)
    }
}

/// Told about every input before it runs: what a watchdog or a crash reporter needs to name the
/// input that hung or killed the process.
public protocol FuzzMonitor: Sendable {
    func willRun(target: String, seed: UInt64, iteration: Int, input: [UInt8])
    func didRun()
}

/// Runs targets over their corpus and mutations of it, deterministically in `seed`.
///
/// Iterations `0..<seeds.count` feed the seeds unmutated; every later iteration mutates a seed with
/// a generator derived from `(seed, target, iteration)` alone, so one iteration reproduces without
/// the ones before it.
public struct Fuzzer: Sendable {
    public var seed: UInt64
    /// An input that takes longer than this is a violation (a parser must stay fast on any input).
    public var timeLimit: Duration = .seconds(2)
    /// Inputs are cut to this length.
    public var maxInputLength = 98_304
    /// How often the run yields to other tasks (the test suite shares two threads).
    public var yieldInterval = 200
    public var maxRecordedViolations = 20
    public var monitors: [any FuzzMonitor] = []

    public init(seed: UInt64) { self.seed = seed }

    /// The input of one iteration.
    public func input(for target: some FuzzTarget, seeds: [FuzzSeed], iteration: Int) -> [UInt8] {
        InputSource(target: target, seeds: seeds, maxLength: maxInputLength).input(
            seed: seed, target: target.name, iteration: iteration)
    }

    /// Runs iterations `0..<iterations`.
    public func run(_ target: some FuzzTarget, seeds: [FuzzSeed], iterations: Int) async -> FuzzReport {
        await run(target, seeds: seeds, iterations: 0..<max(iterations, 0))
    }

    public func run(_ target: some FuzzTarget, seeds: [FuzzSeed], iterations range: Range<Int>) async -> FuzzReport {
        let secrets = SecretFragments(seeds.flatMap { target.secrets(inSeed: $0.bytes) })
        let target = target.withSeedSecrets(secrets)
        let source = InputSource(target: target, seeds: seeds, maxLength: maxInputLength)
        let clock = ContinuousClock()
        let runStart = clock.now
        var report = FuzzReport(target: target.name, seed: seed)

        for iteration in range {
            if (iteration - range.lowerBound) % max(yieldInterval, 1) == 0 { await Task.yield() }
            let input = source.input(seed: seed, target: target.name, iteration: iteration)
            func timedRun() -> (FuzzOutcome, Duration) {
                for monitor in monitors {
                    monitor.willRun(target: target.name, seed: seed, iteration: iteration, input: input)
                }
                let start = clock.now
                let outcome = target.run(input: input)
                let duration = clock.now - start
                for monitor in monitors { monitor.didRun() }
                return (outcome, duration)
            }
            let first = timedRun()
            var outcome = first.0
            let duration = first.1

            report.iterations += 1
            if report.slowest.map({ duration > $0.duration }) ?? true {
                report.slowest = .init(iteration: iteration, duration: duration, size: input.count)
            }
            if !outcome.isViolation, duration > timeLimit {
                // Confirmed by a second run, so a descheduled thread on a busy machine is not a finding.
                let (_, second) = timedRun()
                if second > timeLimit {
                    outcome = .violation(
                        "took \(FuzzReport.milliseconds(duration)) and \(FuzzReport.milliseconds(second)),"
                            + " over the limit of \(FuzzReport.milliseconds(timeLimit))")
                }
            }
            let seedName = iteration >= 0 && iteration < seeds.count ? seeds[iteration].name : nil
            if !outcome.isViolation, outcome != .accepted, let seedName, seeds[iteration].mustBeAccepted {
                outcome = .violation("the corpus seed \(seedName) must be accepted, but the outcome was \(outcome)")
            }
            switch outcome {
            case .accepted: report.accepted += 1
            case .refused(let code): report.refusals[code, default: 0] += 1
            case .discarded: report.discarded += 1
            case .violation(let reason):
                var violation = FuzzViolation(
                    target: target.name, seed: seed, iteration: iteration, seedName: seedName, input: input, reason: reason)
                if let known = FuzzKnownFindings.finding(for: violation) {
                    violation.knownFinding = known.id
                    if report.knownFindings[known.id] == nil { report.knownFindingExamples.append(violation) }
                    report.knownFindings[known.id, default: 0] += 1
                } else {
                    report.violationCount += 1
                    if report.violations.count < maxRecordedViolations { report.violations.append(violation) }
                }
            }
        }
        report.elapsed = clock.now - runStart
        return report
    }
}

/// Seeds and mutator of one target, prepared once per run.
struct InputSource {
    let seeds: [FuzzSeed]
    let seedBytes: [[UInt8]]
    let mutator: Mutator

    init(target: some FuzzTarget, seeds: [FuzzSeed], maxLength: Int) {
        self.seeds = seeds
        self.seedBytes = seeds.map(\.bytes)
        self.mutator = Mutator(dictionary: target.dictionary, maxLength: maxLength)
    }

    func input(seed: UInt64, target: String, iteration: Int) -> [UInt8] {
        if iteration >= 0, iteration < seeds.count { return seeds[iteration].bytes }
        var random = SplitMix64.forIteration(seed: seed, target: target, iteration: iteration)
        return mutator.mutate(seeds: seedBytes, using: &random)
    }
}

/// Reports an input that runs longer than `hangLimit` — a parser stuck in a loop never returns,
/// so the time limit alone cannot catch it — by calling `onHang` with a reproducible description.
/// `onHang` must end the process (or the hung run goes on).
public final class FuzzWatchdog: FuzzMonitor, Sendable {
    private struct Running {
        var target: String
        var seed: UInt64
        var iteration: Int
        var input: [UInt8]
        var start: ContinuousClock.Instant
    }

    private let state = Locked<(current: Running?, reported: Bool)>((nil, false))
    private let hangLimit: Duration
    private let onHang: @Sendable (FuzzViolation) -> Void
    /// Touched only by `init` and `deinit`. `nonisolated(unsafe)` because swift-corelibs-libdispatch
    /// does not mark its sources Sendable (Apple's Dispatch does); a dispatch source is thread-safe.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer

    public init(hangLimit: Duration, onHang: @escaping @Sendable (FuzzViolation) -> Void) {
        self.hangLimit = hangLimit
        self.onHang = onHang
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "provisio.fuzz.watchdog"))
        timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.check() }
        timer.resume()
    }

    deinit { timer.cancel() }

    public func willRun(target: String, seed: UInt64, iteration: Int, input: [UInt8]) {
        let running = Running(target: target, seed: seed, iteration: iteration, input: input, start: ContinuousClock.now)
        state.withLock { $0.current = running }
    }

    public func didRun() {
        state.withLock { $0.current = nil }
    }

    private func check() {
        let hung: FuzzViolation? = state.withLock { state in
            guard !state.reported, let current = state.current, ContinuousClock.now - current.start > hangLimit else {
                return nil
            }
            state.reported = true
            return FuzzViolation(
                target: current.target, seed: current.seed, iteration: current.iteration, seedName: nil,
                input: current.input, reason: "still running after \(FuzzReport.milliseconds(hangLimit)): a hang")
        }
        if let hung { onHang(hung) }
    }
}
