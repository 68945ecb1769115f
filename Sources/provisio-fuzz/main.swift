import ArgumentParser
import Foundation
import ProvisioFuzzing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `provisio-fuzz`: the seeded fuzzer over every parser of outside input, for longer runs than the
/// bounded one `swift test` does. Prints one line per target; exits 1 on any violation, a crash or
/// a hang (naming the input and how to reproduce it), 0 otherwise.
struct ProvisioFuzzCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provisio-fuzz",
        abstract: "Fuzz every Provisio parser of outside input from the committed corpus.",
        discussion: """
            Targets: \(FuzzTargets.names.joined(separator: ", ")).
            Iterations 0..<(number of seeds) run the corpus seeds as they are; later ones mutate them. An
            iteration depends only on --seed, the target and its number, so a reported violation reproduces with
            --target NAME --seed S --iteration I.
            """
    )

    @Option(help: "The target to fuzz, or all.")
    var target = "all"

    @Option(help: "Iterations per target.")
    var iterations = 10_000

    @Option(help: "The run's seed (decimal, or hex with 0x).")
    var seed = "1"

    @Option(help: "The corpus root, holding one folder of seed files per target.")
    var corpus = "Fuzz/Corpus"

    @Option(name: .customLong("save-failures"), help: "Write every failing input to this folder.")
    var saveFailures: String?

    @Option(help: "Run only this iteration (to reproduce a reported input).")
    var iteration: Int?

    @Option(help: "Run the target once on the bytes of this file (a saved failure) instead of fuzzing.")
    var replay: String?

    @Option(name: .customLong("time-limit"), help: "Seconds one input may take before it counts as a violation.")
    var timeLimit: Double = 2

    @Flag(name: .customLong("show-input"), help: "With --iteration: print that iteration's input as hex.")
    var showInput = false

    @Flag(
        name: .customLong("allow-known-findings"),
        help: "Exit 0 when the only violations are instances of already reported parser bugs.")
    var allowKnownFindings = false

    var parsedSeed: UInt64? {
        seed.hasPrefix("0x") ? UInt64(seed.dropFirst(2), radix: 16) : UInt64(seed)
    }

    func validate() throws {
        guard target == "all" || FuzzTargets.named(target) != nil else {
            throw ValidationError("Unknown target \(target); the targets are \(FuzzTargets.names.joined(separator: ", ")).")
        }
        guard parsedSeed != nil else { throw ValidationError("--seed must be a 64-bit number.") }
        guard iterations >= 0 else { throw ValidationError("--iterations must not be negative.") }
        guard timeLimit > 0 else { throw ValidationError("--time-limit must be positive.") }
        if replay != nil, target == "all" { throw ValidationError("--replay needs one --target.") }
        if showInput, iteration == nil { throw ValidationError("--show-input needs --iteration.") }
    }

    func run() async throws {
        let targets = target == "all" ? FuzzTargets.all() : [FuzzTargets.named(target)!]
        if let replay {
            try runReplay(targets[0], file: replay)
            return
        }
        if let saveFailures {
            try FileManager.default.createDirectory(atPath: saveFailures, withIntermediateDirectories: true)
        }
        let seed = parsedSeed!
        let saveFailures = self.saveFailures
        var fuzzer = Fuzzer(seed: seed)
        fuzzer.timeLimit = .milliseconds(Int64(timeLimit * 1000))
        let watchdog = FuzzWatchdog(hangLimit: .seconds(max(10, timeLimit * 5))) { hung in
            Self.report(hung, saveTo: saveFailures)
            Foundation.exit(1)
        }
        fuzzer.monitors = [CrashReporter.shared, watchdog]
        CrashReporter.install()

        let corpus = FuzzCorpus(root: URL(fileURLWithPath: self.corpus, isDirectory: true))
        var failed = false
        for target in targets {
            let seeds: [FuzzSeed]
            do {
                seeds = try corpus.seeds(for: target)
            } catch {
                throw ValidationError("Cannot read the corpus of \(target.name) under \(self.corpus): \(error)")
            }
            CrashReporter.shared.prepare(
                crashFile: saveFailures.map { "\($0)/\(target.name)-seed\(seed)-crash.bin" })
            let range = iteration.map { $0..<($0 + 1) } ?? 0..<iterations
            if showInput, let iteration {
                let input = fuzzer.input(for: target, seeds: seeds, iteration: iteration)
                print("\(target.name) iteration \(iteration) input (\(input.count) bytes, hex): \(FuzzHex.encode(input))")
            }
            let report = await fuzzer.run(target, seeds: seeds, iterations: range)
            print(report.summary)
            for violation in report.violations { Self.report(violation, saveTo: saveFailures) }
            if report.violationCount > report.violations.count {
                print("  … and \(report.violationCount - report.violations.count) more violations of \(target.name)")
            }
            for example in report.knownFindingExamples {
                Self.report(example, saveTo: saveFailures)
                if let finding = FuzzKnownFindings.all.first(where: { $0.id == example.knownFinding }) {
                    print("  (\(report.knownFindings[finding.id] ?? 0) in this run; reported: \(finding.summary))")
                }
            }
            failed = failed || report.violationCount > 0 || (!allowKnownFindings && !report.knownFindings.isEmpty)
        }
        if failed { throw ExitCode(1) }
    }

    private func runReplay(_ target: any FuzzTarget, file: String) throws {
        let input = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let corpus = FuzzCorpus(root: URL(fileURLWithPath: self.corpus, isDirectory: true))
        let seeds = (try? corpus.seeds(for: target)) ?? []
        let prepared = target.withSeedSecrets(SecretFragments(seeds.flatMap { target.secrets(inSeed: $0.bytes) }))
        let start = ContinuousClock.now
        let outcome = prepared.run(input: input)
        print("\(target.name): \(input.count) bytes, \(outcome) in \(ContinuousClock.now - start)")
        if case .violation(let reason) = outcome,
            let finding = FuzzKnownFindings.all.first(where: { $0.target == target.name && reason.contains($0.reasonContains) })
        {
            print("  known finding \(finding.id): \(finding.summary)")
            if allowKnownFindings { return }
        }
        if outcome.isViolation { throw ExitCode(1) }
    }

    static func report(_ violation: FuzzViolation, saveTo folder: String?) {
        print(violation)
        guard let folder else { return }
        let path = "\(folder)/\(violation.target)-seed\(violation.seed)-iteration\(violation.iteration).bin"
        if FileManager.default.createFile(atPath: path, contents: Data(violation.input)) {
            print("  saved: \(path)")
        }
    }
}

/// Names the input that was running when the process crashed: a parser that traps (an overflow, a
/// force unwrap, an out-of-range index) kills the process, so the report is written from a signal
/// handler with `write(2)` only, from buffers filled before each input runs. (It holds no state
/// of its own, so it is plainly Sendable; the buffers are process-wide and `nonisolated(unsafe)`
/// because a signal handler may take no lock.)
final class CrashReporter: FuzzMonitor, Sendable {
    static let shared = CrashReporter()

    private enum Buffers {
        static let capacity = 128 * 1024
        nonisolated(unsafe) static let header = UnsafeMutablePointer<UInt8>.allocate(capacity: 1024)
        nonisolated(unsafe) static var headerLength = 0
        nonisolated(unsafe) static let input = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        nonisolated(unsafe) static var inputLength = 0
        nonisolated(unsafe) static let hex = UnsafeMutablePointer<UInt8>.allocate(capacity: 8192)
        nonisolated(unsafe) static let crashFile = UnsafeMutablePointer<CChar>.allocate(capacity: 4096)
        nonisolated(unsafe) static var hasCrashFile = false
        nonisolated(unsafe) static var active = false
    }

    static func install() {
        for signalNumber in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
            signal(signalNumber, crashHandler)
        }
    }

    func prepare(crashFile: String?) {
        Buffers.hasCrashFile = false
        guard let crashFile, crashFile.utf8.count < 4095 else { return }
        _ = crashFile.withCString { strcpy(Buffers.crashFile, $0) }
        Buffers.hasCrashFile = true
    }

    func willRun(target: String, seed: UInt64, iteration: Int, input: [UInt8]) {
        let header = Array(
            ("\nprovisio-fuzz: CRASH in target \(target), seed \(seed), iteration \(iteration)\n"
                + "  reproduce: swift run -c release provisio-fuzz --target \(target) --seed \(seed) --iteration \(iteration)\n"
                + "  input (\(input.count) bytes, hex): ").utf8.prefix(1024))
        header.withUnsafeBufferPointer { Buffers.header.update(from: $0.baseAddress!, count: $0.count) }
        Buffers.headerLength = header.count
        let length = min(input.count, Buffers.capacity)
        input.withUnsafeBufferPointer { if length > 0 { Buffers.input.update(from: $0.baseAddress!, count: length) } }
        Buffers.inputLength = length
        Buffers.active = true
    }

    func didRun() {
        Buffers.active = false
    }

    private static let crashHandler: @convention(c) (Int32) -> Void = { _ in
        if Buffers.active {
            _ = write(2, Buffers.header, Buffers.headerLength)
            let digits: StaticString = "0123456789abcdef"
            let table = digits.utf8Start
            var written = 0
            while written < Buffers.inputLength {
                let chunk = min(4096, Buffers.inputLength - written)
                for index in 0..<chunk {
                    let byte = Buffers.input[written + index]
                    Buffers.hex[2 * index] = table[Int(byte >> 4)]
                    Buffers.hex[2 * index + 1] = table[Int(byte & 0x0F)]
                }
                _ = write(2, Buffers.hex, 2 * chunk)
                written += chunk
            }
            Buffers.hex[0] = 0x0A
            _ = write(2, Buffers.hex, 1)
            if Buffers.hasCrashFile {
                let file = open(Buffers.crashFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                if file >= 0 {
                    _ = write(file, Buffers.input, Buffers.inputLength)
                    close(file)
                }
            }
        }
        _exit(1)
    }
}

/// Calls the asynchronous `main()`: written plainly in top-level code, `main()` resolves to the
/// synchronous `ParsableCommand.main()`, which refuses to run an asynchronous command.
func runAsynchronously<Command: AsyncParsableCommand>(_ command: Command.Type) async {
    await command.main()
}

await runAsynchronously(ProvisioFuzzCommand.self)
