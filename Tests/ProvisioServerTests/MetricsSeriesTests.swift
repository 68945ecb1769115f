import ProvisioCore
import Testing

@testable import ProvisioServer

@Suite struct MetricsSeriesTests {
    /// Kept series and series past the bound count alike: every request lands in the exposition.
    @Test(arguments: [4096, 1])
    func everyRequestCountsWhetherItsSeriesIsKeptOrNot(limit: Int) {
        let metrics = ProvisioMetrics(keptSeriesLimit: limit)
        for _ in 0..<3 {
            metrics.recordRequest(method: "GET", route: "/v1/cards/{id}", status: 200, duration: .milliseconds(3))
        }
        metrics.recordRequest(method: "GET", route: "/v1/cards/{id}", status: 404, duration: .milliseconds(1))
        metrics.recordRequest(method: "POST", route: "/v1/cards", status: 201, duration: .milliseconds(2))
        for _ in 0..<2 { metrics.recordProvisioning(wallet: .applePay, outcome: .succeeded) }
        metrics.recordProvisioning(wallet: .applePay, outcome: .failed)
        let text = metrics.exposition()
        #expect(text.contains(#"provisio_http_requests_total{method="GET",route="/v1/cards/{id}",status="200"} 3"#), "\(text)")
        #expect(text.contains(#"provisio_http_requests_total{method="GET",route="/v1/cards/{id}",status="404"} 1"#))
        #expect(text.contains(#"provisio_http_requests_total{method="POST",route="/v1/cards",status="201"} 1"#))
        #expect(text.contains(#"provisio_http_request_duration_seconds_count{method="GET",route="/v1/cards/{id}"} 4"#))
        #expect(text.contains(#"provisio_provisioning_attempts_total{wallet="apple_pay",outcome="succeeded"} 2"#))
        #expect(text.contains(#"provisio_provisioning_attempts_total{wallet="apple_pay",outcome="failed"} 1"#))
    }
}
