import Foundation
import Prometheus
import ProvisioCore

/// Prometheus metrics, in a registry owned by this server instance (not the process-wide
/// MetricsSystem, so several servers in one test process stay apart).
public final class ProvisioMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()

    static let latencyBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(20),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    // Computed: MetricNameDescriptor is not Sendable, so it cannot be a stored static.
    static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "provisio", subsystem: "http", metricName: "requests", unitName: "total",
            helpText: "HTTP requests by method, route template and status.")
    }
    static var requestDuration: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "provisio", subsystem: "http", metricName: "request_duration", unitName: "seconds",
            helpText: "HTTP request latency by method and route template.")
    }
    static var provisioningAttempts: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "provisio", subsystem: "provisioning", metricName: "attempts", unitName: "total",
            helpText: "Provisioning attempts by wallet and outcome.")
    }

    /// The series a request or attempt lands in, kept once made: asking the registry for them
    /// on every request (it validates the name and labels, builds a key and takes its lock) cost
    /// about as much as the TAV signature. Label values come from route templates, HTTP methods
    /// (a fixed set, as the parser admits them), status codes and enums; the bound is a backstop.
    private struct RequestSeries: Hashable {
        var method: String
        var route: String
        var status: Int
    }

    private struct Series {
        var requests: [RequestSeries: (count: Counter, duration: DurationHistogram)] = [:]
        var attempts: [String: Counter] = [:]
    }

    private let series = Locked(Series())
    private let keptSeriesLimit: Int

    /// `keptSeriesLimit`: how many series are kept at hand; any further ones still count, through
    /// the registry.
    public init(keptSeriesLimit: Int = 4096) {
        self.keptSeriesLimit = keptSeriesLimit
    }

    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        let (count, histogram) = kept(RequestSeries(method: method, route: route, status: status), in: \.requests) {
            (
                count: registry.makeCounter(
                    descriptor: Self.requests, labels: [("method", method), ("route", route), ("status", String(status))]),
                duration: registry.makeDurationHistogram(
                    descriptor: Self.requestDuration, labels: [("method", method), ("route", route)],
                    buckets: Self.latencyBuckets)
            )
        }
        count.increment()
        histogram.record(duration)
    }

    func recordProvisioning(wallet: Wallet, outcome: ProvisioningAttemptRecord.Outcome) {
        kept(wallet.rawValue + " " + outcome.rawValue, in: \.attempts) {
            registry.makeCounter(
                descriptor: Self.provisioningAttempts, labels: [("wallet", wallet.rawValue), ("outcome", outcome.rawValue)])
        }.increment()
    }

    /// The series kept under `key`, or the one `make` gets from the registry, kept while the
    /// bound allows.
    private func kept<Key: Hashable, Value>(
        _ key: Key, in table: WritableKeyPath<Series, [Key: Value]>, make: () -> Value
    ) -> Value {
        if let value = series.withLock({ $0[keyPath: table][key] }) { return value }
        let made = make()
        series.withLock { series in
            if series[keyPath: table].count < keptSeriesLimit { series[keyPath: table][key] = made }
        }
        return made
    }

    public func exposition() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
