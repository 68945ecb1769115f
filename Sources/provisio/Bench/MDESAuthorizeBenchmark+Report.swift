import Foundation

extension MDESAuthorizeBenchmark.Result {
    /// The MDES section of `bench apple-pay`, in the Apple Pay section's format, next to its
    /// saturated rate and p50 (`appleRate`, `appleP50`, same run, same servers).
    func section(connections: Int, appleRate: Double, appleP50: Double) -> String {
        typealias Bench = ApplePayServerBenchmark
        let sorted = saturated.latenciesNanoseconds.sorted()
        let seconds = Bench.seconds(saturated.elapsed)
        let rate = Double(sorted.count) / seconds
        let p50 = Bench.percentile(0.50, of: sorted)
        let pacedSorted = paced.latenciesNanoseconds.sorted()
        let pacedRate = Double(pacedSorted.count) / Bench.seconds(paced.elapsed)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // One open's CPU against the time the machine's cores have per request at this rate.
        let openMilliseconds = 1000 / opensPerSecond
        let budgetMilliseconds = Double(cores) * 1000 / rate
        func mark(_ ok: Bool) -> String { ok ? "✓" : "✗" }
        func ms(_ value: Double) -> String { String(format: "%8.2f", value) }
        func ranOut(_ result: HTTPLoadGenerator.Result) -> String {
            result.bodiesRanOut ? "   (the body pool ran out: measured until then)" : ""
        }
        return """
            MDES authorizeService (the same servers, \(cores) cores, \(connections) mutual-TLS keep-alive connections from \
            this process; a fresh body per request, \(bodiesBuilt) sealed before the runs in \(String(format: "%.1f", buildSeconds)) s)
              requests           \(sorted.count) ok, \(saturated.failures) failed, in \(String(format: "%.1f", seconds)) s   \
            (target 0 failed; ok is a 200 with decision APPROVED) \(mark(saturated.failures == 0))\(ranOut(saturated))
              throughput         \(String(format: "%8.0f", rate)) requests/s
              latency p50        \(ms(p50)) ms
              latency p90        \(ms(Bench.percentile(0.90, of: sorted))) ms
              latency p99        \(ms(Bench.percentile(0.99, of: sorted))) ms
              latency max        \(ms(sorted.last.map { Double($0) / 1_000_000 } ?? .nan)) ms
              load generator     \(String(format: "%8.2f", generatorCores)) cores   (this process's CPU in the run above: TLS and HTTP; \
            the payloads were sealed before it)
              MDES / Apple       \(String(format: "%8.3f", rate / appleRate))   (requests/s; its p50 is \(String(format: "%.2f", p50 / appleP50))× Apple's)
              payload opens      \(String(format: "%8.0f", opensPerSecond))/s on one core, same run (the listener's decrypter: \
            RSA-\(keySizeInBits) OAEP-SHA256 unwrap, AES-128-GCM)
              what MDES adds     one RSA-\(keySizeInBits) private-key operation per request: \
            \(String(format: "%.2f", openMilliseconds)) ms of one core, \
            \(String(format: "%.0f", openMilliseconds / budgetMilliseconds * 100)) % of the \(cores) cores' \
            \(String(format: "%.2f", budgetMilliseconds)) ms per request at this rate
            paced at \(Int((pacedShare * 100).rounded())) % of the MDES throughput above (\(String(format: "%.0f", pacedRate)) \
            requests/s on a fixed schedule, latency from each request's slot)
              requests           \(pacedSorted.count) ok, \(paced.failures) failed   (target 0 failed) \(mark(paced.failures == 0))\
            \(ranOut(paced))
              latency p50        \(ms(Bench.percentile(0.50, of: pacedSorted))) ms
              latency p99        \(ms(Bench.percentile(0.99, of: pacedSorted))) ms
            """
    }
}
