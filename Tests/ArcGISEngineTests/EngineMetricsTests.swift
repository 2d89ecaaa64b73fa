import CurlHTTP
import EngineExecution
import FeatureQuerySupport
import Metrics
import MetricsTestKit
import QueryLanguage
import SampleFeatureServer
import Testing
import FeatureService

@testable import ArcGISEngine

/// The engine's HTTP and metadata cache metrics (``EngineMetrics``), read from `TestMetrics` after real
/// exchanges with the sample server over loopback.
@Suite("Engine metrics: HTTP exchanges, retries, Retry-After and the metadata cache")
struct EngineMetricsTests {
    /// Runs `body` with an engine counting into a fresh `TestMetrics`, against a sample server with `faults`.
    static func withMeteredEngine(
        faults: [FaultRule] = [], _ body: (SampleFeatureServer, ArcGISEngine, TestMetrics, String) async throws -> Void
    ) async throws {
        let metrics = TestMetrics()
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: ArcGISTestSupport.parcelCount, seed: 7, faults: faults),
            dataset: try ArcGISTestSupport.dataset(), logger: ArcGISTestSupport.logger)
        let client = try HTTPClient(logger: ArcGISTestSupport.logger)
        let engine = ArcGISEngine(
            httpClient: client, configuration: ArcGISEngineConfiguration(retry: ArcGISTestSupport.fastRetries),
            logger: ArcGISTestSupport.logger, authenticator: NoAuthentication(), metrics: EngineMetrics(factory: metrics))
        let host = HostMetrics.hostLabel(origin: server.layerURL(.states))
        do {
            try await body(server, engine, metrics, host)
        } catch {
            await client.shutdown()
            await server.shutdown()
            throw error
        }
        await client.shutdown()
        await server.shutdown()
    }

    static func requests(_ metrics: TestMetrics, _ host: String, _ statusClass: String) -> Int64 {
        metrics.counterTotal(
            label: EngineMetrics.httpRequests.name, dimensions: [("host", host), ("status_class", statusClass)])
    }

    static func counter(_ metrics: TestMetrics, _ metric: MetricDescription, _ dimensions: [(String, String)]) -> Int64 {
        metrics.counterTotal(label: metric.name, dimensions: dimensions)
    }

    @Test func aHostLabelIsHostAndPortOnly() {
        #expect(HostMetrics.hostLabel(origin: "https://Services.Example.com") == "services.example.com")
        #expect(HostMetrics.hostLabel(origin: "https://services.example.com:443") == "services.example.com")
        #expect(HostMetrics.hostLabel(origin: "http://127.0.0.1:8080") == "127.0.0.1:8080")
        #expect(HostMetrics.hostLabel(origin: "https://user:secret@gis.example.org:8443/arcgis/rest?token=x") == "gis.example.org:8443")
        #expect(HostMetrics.hostLabel(origin: "http://[::1]:80") == "[::1]")
    }

    @Test func a503WithRetryAfterIsCountedAsA5xxARetryAndARetryAfterWait() async throws {
        try await Self.withMeteredEngine(
            faults: [FaultRule(.http503(retryAfterSeconds: 1), pathContains: "MapServer/2/query", trigger: .first(1))]
        ) { server, engine, metrics, host in
            let result = try await engine.query(
                layer: server.layerURL(.states), ServiceQuery(whereClause: try WhereClause("POP2000 > 1000000")))
            #expect(result.retries == 1)
            #expect(host.hasPrefix("127.0.0.1:"))
            let served = Int64(server.statistics.requests)
            #expect(Self.requests(metrics, host, "5xx") == 1)
            #expect(Self.requests(metrics, host, "2xx") == served - 1)
            #expect(Self.requests(metrics, host, "4xx") == 0)
            #expect(Self.requests(metrics, host, "error") == 0)
            #expect(Self.counter(metrics, EngineMetrics.httpRetries, [("host", host)]) == 1)
            #expect(Self.counter(metrics, EngineMetrics.httpRetryAfterWaits, [("host", host)]) == 1)
            // A floating-point counter reaches TestMetrics rounded to whole units: exactly the 1 s asked for.
            #expect(Self.counter(metrics, EngineMetrics.httpRetryAfterWaitSeconds, [("host", host)]) == 1)
            let durations = try metrics.expectTimer(EngineMetrics.httpRequestDuration.name, [("host", host)]).values
            #expect(Int64(durations.count) == served)
            #expect(durations.allSatisfy { $0 > 0 })
        }
    }

    @Test func aRetryWithoutRetryAfterIsNoRetryAfterWait() async throws {
        try await Self.withMeteredEngine(
            faults: [FaultRule(.http500, pathContains: "MapServer/2/query", trigger: .first(2))]
        ) { server, engine, metrics, host in
            _ = try await engine.query(layer: server.layerURL(.states), ServiceQuery(whereClause: try WhereClause("1=1")))
            #expect(Self.requests(metrics, host, "5xx") == 2)
            #expect(Self.counter(metrics, EngineMetrics.httpRetries, [("host", host)]) == 2)
            #expect(Self.counter(metrics, EngineMetrics.httpRetryAfterWaits, [("host", host)]) == 0)
            #expect(Self.counter(metrics, EngineMetrics.httpRetryAfterWaitSeconds, [("host", host)]) == 0)
        }
    }

    @Test func aRefusedConnectionIsAnErrorPerAttempt() async throws {
        try await Self.withMeteredEngine { _, engine, metrics, _ in
            // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
            let url = "http://127.0.0.1:9/arcgis/rest/services/X/MapServer/0"
            await #expect(throws: FeatureServiceError.self) { _ = try await engine.query(layer: url, ServiceQuery()) }
            let host = "127.0.0.1:9"
            let errors = Self.requests(metrics, host, "error")
            // Every attempt is one `error` exchange; the attempts after the first are retries.
            #expect(errors >= 1)
            #expect(errors <= Int64(ArcGISTestSupport.fastRetries.maxAttempts))
            #expect(Self.counter(metrics, EngineMetrics.httpRetries, [("host", host)]) == errors - 1)
            #expect(Self.requests(metrics, host, "2xx") == 0)
            #expect(Self.counter(metrics, EngineMetrics.httpRetryAfterWaits, [("host", host)]) == 0)
        }
    }

    @Test func metadataIsAMissThenHits() async throws {
        try await Self.withMeteredEngine { server, engine, metrics, _ in
            for _ in 0..<3 {
                _ = try await engine.query(layer: server.layerURL(.states), ServiceQuery(whereClause: try WhereClause("1=1")))
            }
            #expect(Self.counter(metrics, EngineMetrics.metadataCacheRequests, [("result", "miss")]) == 1)
            #expect(Self.counter(metrics, EngineMetrics.metadataCacheRequests, [("result", "hit")]) == 2)
            #expect(Self.counter(metrics, EngineMetrics.metadataCacheRequests, [("result", "shared")]) == 0)
            #expect(server.statistics.metadataRequests == 1)
            // The gauge shows what the cache holds, and that clearing it lets go.
            let entries = try metrics.expectGauge(EngineMetrics.metadataCacheEntries.name)
            #expect((entries.lastValue ?? 0) >= 1, "\(String(describing: entries.lastValue))")
            engine.clearMetadataCache()
            #expect(entries.lastValue == 0)
        }
    }

    @Test func concurrentLookupsShareOneLoad() async throws {
        // Slow metadata (and queries): the second query arrives while the first one's load is in flight.
        try await Self.withMeteredEngine(
            faults: [FaultRule(.latency(milliseconds: 500), pathContains: "MapServer/2")]
        ) { server, engine, metrics, _ in
            let url = server.layerURL(.states)
            async let first = engine.query(layer: url, ServiceQuery(whereClause: try WhereClause("1=1")))
            try await Task.sleep(for: .milliseconds(100))
            async let second = engine.query(layer: url, ServiceQuery(whereClause: try WhereClause("1=1")))
            _ = try await (first, second)
            #expect(Self.counter(metrics, EngineMetrics.metadataCacheRequests, [("result", "miss")]) == 1)
            #expect(Self.counter(metrics, EngineMetrics.metadataCacheRequests, [("result", "shared")]) == 1)
            #expect(server.statistics.metadataRequests == 1)
        }
    }
}
