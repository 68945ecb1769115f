import ArgumentParser
import Foundation
import ProvisioCore

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks that print figures and ratios (build with -c release).",
        subcommands: [Seal.self, ApplePay.self, WalletExtension.self]
    )

    struct ApplePay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apple-pay",
            abstract:
                "Requests per second, latency and cold start of the Apple Pay endpoint, next to the seal rate; then MDES's authorizeService."
        )

        @Option(name: .long, help: "Seconds to measure.") var seconds: Int = 10
        @Option(name: .long, help: "Keep-alive connections.") var connections: Int = 16
        @Option(name: .long, help: "The paced run's rate, in percent of the saturated run's (1-100).")
        var pacedPercent: Int = 50
        @Option(
            name: .long,
            help: "A postgres:// URL the benchmark may write to: two server processes share it (default: SQLite, one).")
        var postgres: String?
        @Flag(
            name: .customLong("skip-mdes"),
            help: "Skip the MDES authorizeService runs (mutual TLS, same servers), which add about twice --seconds.")
        var skipMDES = false

        func run() async throws {
            try await runReportingErrorsAsync {
                let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
                guard seconds >= 1, connections >= 1 else {
                    throw ProvisioError(.invalidParameter, "--seconds and --connections must be at least 1.")
                }
                guard (1...100).contains(pacedPercent) else {
                    throw ProvisioError(.invalidParameter, "--paced-percent must be between 1 and 100.")
                }
                var benchmark = ApplePayServerBenchmark(
                    seconds: seconds, connections: connections, executable: executable, postgres: postgres)
                benchmark.pacedShare = Double(pacedPercent) / 100
                benchmark.mdes = !skipMDES
                print(try await benchmark.run())
            }
        }
    }

    struct Seal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "ECC_V2 seals per second on one core next to the raw primitive chain (≥ 0.95) and Python's cryptography (≥ 1.5).")

        @Option(name: .long, help: "Seconds to measure in all (split into alternating rounds).")
        var seconds: Double = 6

        @Flag(name: .long, help: "Exit non-zero when the ratio misses the target.")
        var enforce = false

        func run() async throws {
            let report = try await SealBenchmark(totalSeconds: seconds).run()
            print(report.text)
            if enforce && !report.meetsTarget { throw ExitCode(1) }
        }
    }

    struct WalletExtension: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wallet-extension",
            abstract: "The Wallet extension's status and pass entries with 200 cards (targets: p99 < 1 ms and < 50 ms).")

        @Option(name: .long, help: "Calls to measure per figure.") var iterations: Int = 2000

        func run() throws {
            try runReportingErrors {
                guard iterations >= 100 else { throw ProvisioError(.invalidParameter, "--iterations must be at least 100.") }
                print(try WalletExtensionBenchmark(iterations: iterations).run())
            }
        }
    }
}
