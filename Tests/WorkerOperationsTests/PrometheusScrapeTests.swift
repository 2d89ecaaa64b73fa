import ChildProcessFixture
import CurlHTTP
import FeatureQuerySupport
import Foundation
import Metrics
import Prometheus
import QueryWorker
import Testing
import SampleFeatureServer

/// The exposition as Prometheus itself reads it: `promtool check metrics` accepts it, and a real Prometheus
/// scraping the worker's endpoint every second sees it up and stores its figures.
@Suite(.serialized)
struct PrometheusScrapeTests {
    @Test(.enabled(if: InteropTools.runs("prometheus", "promtool"), "prometheus is not installed (scripts/setup-deps installs it)"))
    func prometheusScrapesTheWorker() async throws {
        let harness = try await OperationsHarness()
        _ = try await harness.waitForEndpoint("/health/ready", status: 200)
        for index in 0..<3 {
            try await harness.send("count-\(index)", OperationsHarness.request("count-\(index)", url: harness.server.layerURL(.states)))
        }
        try await harness.waitForStatus { $0.answered >= 3 }
        // The worker's own metrics are the metrics lane's; until they are in, one figure of the harness's
        // registry stands in, so the scrape has something of the worker's to store.
        let metric = try Self.workerMetric(harness)

        let directory = try InteropTools.temporaryDirectory("prometheus")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let exposition = try await harness.get("/metrics").body
        #expect(exposition.contains("# HELP \(metric.name) "), "HELP lines are added: \(exposition)")
        try exposition.write(toFile: "\(directory)/metrics.txt", atomically: true, encoding: .utf8)
        let promtool = InteropTools.path("promtool") ?? "promtool"
        let lint = try await ChildProcesses.run(["/bin/bash", "-c", "\"$0\" check metrics < \"$1\" 2>&1", promtool, "\(directory)/metrics.txt"])
        #expect(!lint.contains("error"), "promtool: \(lint)")

        let webPort = try ChildProcesses.unusedPort()
        let configuration = """
            global: {scrape_interval: 1s, evaluation_interval: 1s}
            scrape_configs:
              - job_name: query-worker
                scrape_interval: 1s
                static_configs: [{targets: ["127.0.0.1:\(harness.port)"]}]
            """
        try configuration.write(toFile: "\(directory)/prometheus.yml", atomically: true, encoding: .utf8)
        let prometheus = try WatchedProcess(
            name: "prometheus",
            [InteropTools.path("prometheus") ?? "prometheus", "--config.file=\(directory)/prometheus.yml",
             "--storage.tsdb.path=\(directory)/data", "--web.listen-address=127.0.0.1:\(webPort)"],
            removeOnExit: ["\(directory)/data"], logDirectory: directory)
        let api = "http://127.0.0.1:\(webPort)/api/v1/query?query="
        let up = try await Self.query(harness, api + #"up%7Bjob%3D%22query-worker%22%7D"#) { $0 == "1" }
        #expect(up == "1", "up: \(up ?? "nothing"); \(prometheus.log.suffix(2_000))")
        let stored = try await Self.query(harness, api + metric.name) { $0 == metric.value }
        #expect(stored == metric.value, "\(metric.name): \(stored ?? "nothing")")
        await prometheus.stop()
        try await harness.stop()
    }

    /// A metric of the worker's registry and its value now: the metrics lane's `requests_received_total` when
    /// it is there, else a gauge of the answered count recorded in the registry here.
    static func workerMetric(_ harness: OperationsHarness) throws -> (name: String, value: String) {
        let answered = harness.assembly.status().answered
        var bytes: [UInt8] = []
        harness.registry.emit(into: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("query_worker_requests_received_total ") }),
            let value = line.split(separator: " ").last {
            return ("query_worker_requests_received_total", String(Double(value).map { String(Int($0)) } ?? String(value)))
        }
        Gauge(label: "ops_test_answered", factory: PrometheusMetricsFactory(registry: harness.registry)).record(answered)
        return ("ops_test_answered", String(answered))
    }

    /// Polls a Prometheus instant query until its first sample's value satisfies `accept` (60 s at most);
    /// returns the last value seen.
    static func query(_ harness: OperationsHarness, _ url: String, accept: (String) -> Bool) async throws -> String? {
        let deadline = ContinuousClock.now + .seconds(60)
        var last: String?
        while ContinuousClock.now < deadline {
            if let response = try? await harness.http.execute(HTTPRequest(method: .get, url: url)), response.status == 200,
                let json = try? ParsedJSON(reading: response.body),
                case .array(let results)? = json["data"]?["result"], case .array(let sample)? = results.first?["value"],
                sample.count == 2, case .string(let value) = sample[1] {
                last = value
                if accept(value) { return value }
            }
            try await Task.sleep(for: .milliseconds(500))
        }
        return last
    }
}
