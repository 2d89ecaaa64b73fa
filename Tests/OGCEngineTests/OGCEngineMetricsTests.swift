import EngineExecution
import FeatureQuerySupport
import FeatureService
import FeatureServiceEngines
import Metrics
import MetricsTestKit
import SampleFeatureServer
import Testing

@testable import OGCEngine
import CurlHTTP

/// The OGC engine counts its exchanges where the ArcGIS engine does (``EngineMetrics``): by host and status
/// class, retries, `Retry-After` waits and metadata lookups, against the sample server's OGC face.
@Suite("OGC engine metrics")
struct OGCEngineMetricsTests {
    @Test func a429WithRetryAfterIsCountedAndMetadataIsCached() async throws {
        let metrics = TestMetrics()
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(
                parcelCount: 20_000, seed: 3,
                faults: [FaultRule(.http429(retryAfterSeconds: 1), pathContains: "/ogc/collections/USA_States/items", trigger: .first(1))]),
            dataset: try SampleDataset.shared(parcelCount: 20_000, seed: 3), logger: OGCTestServer.logger)
        let client = try HTTPClientFixture.make()
        let engine = OGCEngine(
            httpClient: client, configuration: OGCTestServer.fastConfiguration, logger: OGCTestServer.logger,
            metrics: EngineMetrics(factory: metrics))
        let target = ServiceTarget(kind: .ogc, url: server.ogcURL, layers: ["USA_States"])
        let first = await engine.query([target], ServiceQuery(result: .ids), budget: .unlimited())[0][0]
        #expect(first.success?.featureIds.count == 49)
        let misses = Self.cache(metrics, "miss")
        let served = server.statistics.requests
        let second = await engine.query([target], ServiceQuery(result: .ids), budget: .unlimited())[0][0]
        #expect(second.success?.featureIds.count == 49)
        await client.shutdown()
        await server.shutdown()

        let host = HostMetrics.hostLabel(origin: server.ogcURL)
        #expect(Self.http(metrics, host, "4xx") == 1)
        #expect(Self.http(metrics, host, "2xx") == Int64(server.statistics.requests - 1))
        #expect(Self.http(metrics, host, "5xx") == 0)
        #expect(metrics.counterTotal(label: EngineMetrics.httpRetries.name, dimensions: [("host", host)]) == 1)
        #expect(metrics.counterTotal(label: EngineMetrics.httpRetryAfterWaits.name, dimensions: [("host", host)]) == 1)
        #expect(metrics.counterTotal(label: EngineMetrics.httpRetryAfterWaitSeconds.name, dimensions: [("host", host)]) == 1)
        // The second query loaded no metadata: its lookups were hits, and it sent fewer requests than the first.
        #expect(misses >= 1)
        #expect(Self.cache(metrics, "miss") == misses)
        #expect(Self.cache(metrics, "hit") >= 1)
        #expect(server.statistics.requests - served < served)
    }

    static func http(_ metrics: TestMetrics, _ host: String, _ statusClass: String) -> Int64 {
        metrics.counterTotal(label: EngineMetrics.httpRequests.name, dimensions: [("host", host), ("status_class", statusClass)])
    }

    static func cache(_ metrics: TestMetrics, _ result: String) -> Int64 {
        metrics.counterTotal(label: EngineMetrics.metadataCacheRequests.name, dimensions: [("result", result)])
    }
}
