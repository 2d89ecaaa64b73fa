import ChildProcessFixture
import EngineExecution
import Foundation
import QueryWorker
import Testing

/// The PrometheusRule of components/monitoring: its alerts name only metrics the worker exports, and they
/// fire (and stay quiet) as intended on synthetic series, in promtool's rule unit tests.
@Suite("deploy/kubernetes alerts", .enabled(if: KubernetesFixture.validatorEnabled))
struct KubernetesAlertTests {
    /// The worker's metrics (``MetricCatalog``, names without `query_worker_`), histograms marked: a renamed
    /// or removed metric fails the alerts that name it.
    static let catalog: [String: Bool] = Dictionary(uniqueKeysWithValues: MetricCatalog.all.map {
        (String($0.name.dropFirst(MetricDescription.prefix.count)), $0.kind == .histogram)
    })
    /// Series from outside the worker the rules may use: Prometheus's own `up`, and kube-state-metrics'
    /// readiness (kube-prometheus-stack installs it).
    static let external: Set<String> = ["up", "kube_pod_status_ready"]
    /// The alerts the operations documentation names, by what they watch.
    static let required = [
        "QueryWorkerLagGrowing", "QueryWorkerNotReady", "QueryWorkerDown", "QueryWorkerErrorRate",
        "QueryWorkerOutcomeDeliveryFailures", "QueryWorkerTokenRefreshFailures", "QueryWorkerKafkaDisconnected",
    ]

    @Test func alertsNameOnlyMetricsTheWorkerExports() throws {
        let groups = try Self.ruleGroups()
        let rules = groups.flatMap { $0["rules"] as? [[String: Any]] ?? [] }
        let recorded = Set(rules.compactMap { $0["record"] as? String })
        var used: Set<String> = []
        for rule in rules {
            let expression = try #require(rule["expr"] as? String)
            for name in Self.metricNames(in: expression) {
                used.insert(name)
                let known = Self.isCatalogSeries(name) || Self.external.contains(name) || recorded.contains(name)
                #expect(known, "\(rule["alert"] ?? rule["record"] ?? "?") uses \(name), which is not a worker metric")
            }
        }
        for name in ["query_worker_consumer_lag", "query_worker_outcomes_total", "query_worker_kafka_connected",
                     "query_worker_outcome_delivery_failures_total", "query_worker_token_refresh_failures_total"] {
            #expect(used.contains(name), "no rule uses \(name)")
        }
        // The extraction itself: names, not functions, labels, label values or keywords.
        #expect(Self.metricNames(in: #"sum by (ns) (rate(a_total{status=~"x|y"}[5m])) / on(ns) b > 0.5 and c"#) == ["a_total", "b", "c"])
        #expect(Self.isCatalogSeries("query_worker_request_duration_seconds_bucket"))
        #expect(!Self.isCatalogSeries("query_worker_outcomes_total_bucket") && !Self.isCatalogSeries("query_worker_outcome_total"))
    }

    @Test func everyAlertIsThereWithSeverityAndText() throws {
        let rules = try Self.ruleGroups().flatMap { $0["rules"] as? [[String: Any]] ?? [] }
        let alerts = rules.filter { $0["alert"] != nil }
        #expect(Set(alerts.compactMap { $0["alert"] as? String }) == Set(Self.required))
        for alert in alerts {
            #expect(["warning", "critical"].contains(at(alert, "labels", "severity") as? String ?? ""), "\(alert["alert"] ?? "?")")
            #expect(!(at(alert, "annotations", "summary") as? String ?? "").isEmpty)
            #expect(!(at(alert, "annotations", "description") as? String ?? "").isEmpty)
        }
    }

    /// `promtool test rules` with Fixtures/kubernetes/alerts.test.yaml: each alert fires on series that should
    /// set it off, with its labels and text, and stays quiet on the near misses.
    @Test(.enabled(if: KubernetesFixture.promtool != nil || KubernetesFixture.interopRequired))
    func alertsFireOnPromtoolsUnitTests() throws {
        let promtool = try #require(KubernetesFixture.promtool, "no promtool: scripts/setup-deps installs Debian's prometheus")
        let scratch = try KubernetesFixture.temporaryDirectory("promtool")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // JSON is YAML: the rule file is the PrometheusRule's spec as it is.
        let rules = try JSONSerialization.data(withJSONObject: ["groups": try Self.ruleGroups()], options: [.sortedKeys, .withoutEscapingSlashes])
        try rules.write(to: scratch.appendingPathComponent("rules.yaml"))
        try FileManager.default.copyItem(
            at: KubernetesFixture.fixtures.appendingPathComponent("alerts.test.yaml"),
            to: scratch.appendingPathComponent("alerts.test.yaml"))
        let check = try KubernetesFixture.run(promtool, ["check", "rules", "rules.yaml"], in: scratch)
        #expect(check.status == 0, "promtool check rules: \(check.stdout) \(check.stderr)")
        let test = try KubernetesFixture.run(promtool, ["test", "rules", "alerts.test.yaml"], in: scratch)
        #expect(test.status == 0, "promtool test rules: \(test.stdout) \(test.stderr)")
    }

    // MARK: - Helpers

    /// The rule groups of the example overlay's PrometheusRule.
    static func ruleGroups() throws -> [[String: Any]] {
        let rendered = try ManifestSet.example.render()
        return try #require(at(try rendered.one("PrometheusRule"), "spec", "groups") as? [[String: Any]])
    }

    /// A worker metric, or one of a histogram's series.
    static func isCatalogSeries(_ name: String) -> Bool {
        guard name.hasPrefix("query_worker_") else { return false }
        let base = String(name.dropFirst("query_worker_".count))
        if catalog[base] != nil { return true }
        return ["_bucket", "_sum", "_count"].contains { suffix in
            base.hasSuffix(suffix) && catalog[String(base.dropLast(suffix.count))] == true
        }
    }

    /// The metric names of a PromQL expression: identifiers left once strings, label matchers, groupings,
    /// ranges, function calls and keywords are taken out.
    static func metricNames(in expression: String) -> [String] {
        var text = expression
        for pattern in [#""(?:[^"\\]|\\.)*""#, #"\{[^}]*\}"#, #"\[[^\]]*\]"#,
                        #"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)"#] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        let keywords: Set<String> = ["and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring"]
        var names: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: #"[A-Za-z_:][A-Za-z0-9_:]*"#, options: .regularExpression) {
            let name = String(rest[range])
            let after = rest[range.upperBound...].drop { $0 == " " }
            let isCall = after.first == "("
            let isNumberPart = range.lowerBound > rest.startIndex && rest[rest.index(before: range.lowerBound)].isNumber
            if !isCall, !isNumberPart, !keywords.contains(name), !names.contains(name) { names.append(name) }
            rest = rest[range.upperBound...]
        }
        return names
    }
}
