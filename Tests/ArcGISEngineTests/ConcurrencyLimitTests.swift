import ArcGISEngine
import CurlHTTP
import HTTPTestServer
import Hummingbird
import Synchronization
import Testing
import FeatureService

@Suite("Pages run in parallel within the page and per-host limits")
struct ConcurrencyLimitTests {
    /// A paginating point layer of `count` features on a loopback server that records how many queries it
    /// holds at once; each query takes `delay`.
    ///
    /// With `gate`, queries are held until `gate` of them are in flight at once (or `gateTimeout` passes): that the
    /// engine reaches its limit is then an event the server waits for, not a race between 30 ms sleeps on a busy
    /// machine (a peak of 2 instead of 3 was seen with the suites of a whole test process beside it). A gate the
    /// engine cannot reach (it does not run that many at once) still opens after the timeout, and the peak says so.
    final class CountingLayer: Sendable {
        struct Gauge { var current = 0; var peak = 0; var queries = 0 }
        let gauge = Mutex(Gauge())
        let count: Int
        let delay: Duration
        let gate: Int?
        static let gateTimeout: Duration = .seconds(10)

        init(count: Int, delay: Duration, gate: Int? = nil) {
            self.count = count
            self.delay = delay
            self.gate = gate
        }

        /// Holds a page query until the gate's number of queries were in flight at once (the peak reached it).
        private func passGate() async throws {
            guard let gate else { return }
            let deadline = ContinuousClock.now + Self.gateTimeout
            while gauge.withLock({ $0.peak }) < gate, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
        }

        func handle(_ request: Request) async throws -> Response {
            guard request.uri.path.hasSuffix("/query") else {
                return .json(#"{"id":0,"name":"Counted","type":"Feature Layer","geometryType":"esriGeometryPoint","#
                    + #""objectIdField":"OID","fields":[{"name":"OID","type":"esriFieldTypeOID"}],"maxRecordCount":500,"#
                    + #""capabilities":"Query","advancedQueryCapabilities":{"supportsPagination":true}}"#)
            }
            gauge.withLock { $0.current += 1; $0.peak = max($0.peak, $0.current); $0.queries += 1 }
            defer { gauge.withLock { $0.current -= 1 } }
            let parameters = try await request.parameters()
            // Only pages wait at the gate: an engine sends the count alone, before any page.
            if parameters.value("returnCountOnly") != "true" { try await passGate() }
            try await Task.sleep(for: delay)
            if parameters.value("returnCountOnly") == "true" { return .json(#"{"count":\#(count)}"#) }
            let offset = Int(parameters.value("resultOffset") ?? "0") ?? 0
            let size = min(500, Int(parameters.value("resultRecordCount") ?? "500") ?? 500)
            let ids = offset < count ? Array((offset + 1)...min(count, offset + size)) : []
            let features = ids.map { #"{"attributes":{"OID":\#($0)}}"# }.joined(separator: ",")
            let more = offset + ids.count < count
            return .json(#"{"objectIdFieldName":"OID","features":[\#(features)],"exceededTransferLimit":\#(more)}"#)
        }
    }

    func withLayer(
        _ layer: CountingLayer, configuration: ArcGISEngineConfiguration,
        _ body: (String, ArcGISEngine) async throws -> Void
    ) async throws {
        try await TestHTTPServer.withServer(logger: ArcGISTestSupport.logger, handler: { try await layer.handle($0) }) { server in
            let client = try HTTPClient(logger: ArcGISTestSupport.logger)
            let engine = ArcGISEngine(httpClient: client, configuration: configuration, logger: ArcGISTestSupport.logger)
            do { try await body(server.baseURL + "/arcgis/rest/services/Counted/FeatureServer/0", engine) } catch {
                Issue.record(error)
            }
            await client.shutdown()
        }
    }

    @Test func pagesOfOneQueryRunInParallelUpToThePageLimit() async throws {
        let layer = CountingLayer(count: 6_000, delay: .milliseconds(50), gate: 4)
        try await withLayer(layer, configuration: ArcGISEngineConfiguration(pageConcurrency: 4)) { url, engine in
            let result = try await engine.query(layer: url, ServiceQuery(result: .features))
            #expect(result.selection.geoJSON?.count == 6_000)
            #expect(result.isComplete)
        }
        let gauge = layer.gauge.withLock { $0 }
        #expect(gauge.peak == 4)
        #expect(gauge.queries == 13)  // the count, then 12 pages
    }

    @Test func queriesToOneHostShareItsLimit() async throws {
        let layer = CountingLayer(count: 3_000, delay: .milliseconds(30), gate: 3)
        let configuration = ArcGISEngineConfiguration(maxConcurrentRequestsPerHost: 3, pageConcurrency: 6)
        try await withLayer(layer, configuration: configuration) { url, engine in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await engine.query(layer: url, ServiceQuery(result: .features)).selection.geoJSON?.count ?? 0 }
                }
                for try await count in group { #expect(count == 3_000) }
            }
        }
        #expect(layer.gauge.withLock { $0.peak } == 3)
    }
}
