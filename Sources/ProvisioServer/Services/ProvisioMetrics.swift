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

    public init() {}

    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.requests,
            labels: [("method", method), ("route", route), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.requestDuration,
            labels: [("method", method), ("route", route)],
            buckets: Self.latencyBuckets
        ).record(duration)
    }

    func recordProvisioning(wallet: Wallet, outcome: ProvisioningAttemptRecord.Outcome) {
        registry.makeCounter(
            descriptor: Self.provisioningAttempts, labels: [("wallet", wallet.rawValue), ("outcome", outcome.rawValue)]
        ).increment()
    }

    public func exposition() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
