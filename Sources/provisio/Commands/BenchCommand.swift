import ArgumentParser
import Foundation

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks that print figures and ratios (build with -c release).",
        subcommands: [Seal.self]
    )

    struct Seal: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "ECC_V2 seals per second on one core next to the raw primitive chain (target ratio ≥ 0.95).")

        @Option(name: .long, help: "Seconds to measure in all (split into alternating rounds).")
        var seconds: Double = 6

        @Flag(name: .long, help: "Exit non-zero when the ratio misses the target.")
        var enforce = false

        func run() throws {
            let report = try SealBenchmark(totalSeconds: seconds).run()
            print(report.text)
            if enforce && !report.meetsTarget { throw ExitCode(1) }
        }
    }
}
