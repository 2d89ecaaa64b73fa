import FeatureService
import Foundation
import Synchronization
import Testing
@testable import RequestContract

@testable import QueryWorker

/// The worker runs requests through the feature-service seam only: a protocol the worker has never heard of
/// plugs in as an engine registered with the router, and the executor passes every request's budget along.
@Suite struct FeatureServiceSeamTests {
    /// A stand-in for a second protocol's engine: answers every layer of its targets with two features and
    /// records the budgets it was given.
    final class StubEngine: FeatureServiceEngine {
        let kinds: Set<ServiceKind>
        let budgets = Mutex<[Int]>([])
        /// The targets of each call, by URL: a request's bounds need all its targets of a kind in one call.
        let calls = Mutex<[[String]]>([])

        init(kinds: Set<ServiceKind>) { self.kinds = kinds }

        func query(_ targets: [ServiceTarget], _ query: ServiceQuery, budget: ResultBudget) async -> [[ServiceLayerOutcome]] {
            budgets.withLock { $0.append(budget.limit) }
            calls.withLock { $0.append(targets.map(\.url)) }
            return targets.map { target in
                (target.layers ?? ["all"]).map { layer in
                    let url = "\(target.url)/collections/\(layer)"
                    let features = GeoJSONFeatureList(encoded: [
                        (1, Array(#"{"type":"Feature","id":1,"geometry":null,"properties":{}}"#.utf8)),
                        (2, Array(#"{"type":"Feature","id":2,"geometry":null,"properties":{}}"#.utf8)),
                    ])
                    let selection: LayerSelection = switch query.result {
                    case .count, .statistics, .extent, .distinct, .related, .attachments: .countOnly
                    case .ids: .objectIds(features.objectIds)
                    case .features: .features(features)
                    case .catalog: .catalog([CatalogEntry(id: layer)])
                    }
                    return ServiceLayerOutcome(url: url, result: .success(ServiceLayerResult(
                        url: url, name: layer, count: 2, isComplete: true, selection: selection)))
                }
            }
        }
    }

    static func executor(_ engine: any FeatureServiceEngine, maxResultTotalBytes: Int = 1 << 20) throws -> RequestExecutor {
        RequestExecutor(
            engine: engine, hostPolicy: try HostPolicy(allowedHosts: ["127.0.0.1", "ogc.example.org"]), workerID: "seam-test",
            maxResultTotalBytes: maxResultTotalBytes, clock: { 1_000 })
    }

    @Test func anOGCTargetRunsThroughTheEngineRegisteredForItsKind() async throws {
        let ogc = StubEngine(kinds: [.ogc])
        let executor = try Self.executor(FeatureServiceRouter([ogc]), maxResultTotalBytes: 12_345)
        let request = QueryRequest(
            requestId: "r", receivedAt: 0, targets: [.ogc(url: "https://ogc.example.org/api", collection: "AgriculturePnt")],
            query: QuerySpec(result: .features))
        guard case .result(let result) = await executor.execute(request) else {
            Issue.record("the request did not produce a result")
            return
        }
        #expect(result.status == .succeeded)
        #expect(result.layers.map(\.url) == ["https://ogc.example.org/api/collections/AgriculturePnt"])
        guard case .succeeded(2, true, .features(let features))? = result.layers.first?.outcome else {
            Issue.record("unexpected \(String(describing: result.layers.first?.outcome))")
            return
        }
        #expect(features.objectIds == [1, 2])
        #expect(ogc.budgets.withLock { $0 } == [12_345], "one budget of maxResultTotalBytes per request")
    }

    @Test func aKindNoEngineQueriesFailsThatTargetAloneInOrder() async throws {
        let arcgis = StubEngine(kinds: [.arcgis])
        let executor = try Self.executor(FeatureServiceRouter([arcgis]))
        let request = QueryRequest(
            requestId: "r", receivedAt: 0,
            targets: [
                .arcgis(url: "http://127.0.0.1/arcgis/rest/services/USA/MapServer", layers: [0, 2]),
                .ogc(url: "https://ogc.example.org/api", collection: "CulturePnt"),
            ],
            query: QuerySpec(result: .count))
        guard case .result(let result) = await executor.execute(request) else {
            Issue.record("the request did not produce a result")
            return
        }
        #expect(result.status == .partial)
        #expect(result.layers.map(\.url) == [
            "http://127.0.0.1/arcgis/rest/services/USA/MapServer/collections/0",
            "http://127.0.0.1/arcgis/rest/services/USA/MapServer/collections/2",
            "https://ogc.example.org/api",
        ])
        guard case .failed(let error)? = result.layers.last?.outcome else {
            Issue.record("the OGC target should have failed")
            return
        }
        #expect(error.code == .unsupportedTarget)
    }

    @Test func eachEngineGetsAllItsTargetsInOneCallAndAnswersStayInTargetOrder() async throws {
        let arcgis = StubEngine(kinds: [.arcgis])
        let ogc = StubEngine(kinds: [.ogc])
        let executor = try Self.executor(FeatureServiceRouter([arcgis, ogc]))
        let first = "http://127.0.0.1/arcgis/rest/services/USA/MapServer"
        let second = "http://127.0.0.1/arcgis/rest/services/LA_County_Parcels/FeatureServer"
        let request = QueryRequest(
            requestId: "r", receivedAt: 0,
            targets: [
                .arcgis(url: first, layers: [0]),
                .ogc(url: "https://ogc.example.org/api", collection: "CulturePnt"),
                .arcgis(url: second, layers: [0]),
            ],
            query: QuerySpec(result: .count))
        guard case .result(let result) = await executor.execute(request) else {
            Issue.record("the request did not produce a result")
            return
        }
        #expect(arcgis.calls.withLock { $0 } == [[first, second]], "one call with both ArcGIS targets")
        #expect(ogc.calls.withLock { $0 } == [["https://ogc.example.org/api"]])
        #expect(result.layers.map(\.url) == [
            "\(first)/collections/0", "https://ogc.example.org/api/collections/CulturePnt", "\(second)/collections/0",
        ])
    }

    @Test func aBudgetRefusesWhatDoesNotFitAndStaysSpent() {
        let budget = ResultBudget(limit: 100)
        #expect(budget.reserve(60))
        #expect(!budget.reserve(41), "41 more bytes do not fit in the 40 left")
        #expect(budget.isSpent)
        #expect(!budget.reserve(1), "a spent budget takes nothing more: the request's result is cut")
        #expect(budget.used == 60)
        let ids = ResultBudget(limit: 100)
        #expect(ids.reserve(count: 20, unit: 8) == 12)
        #expect(ids.used == 96 && ids.isSpent)
        let roomy = ResultBudget(limit: 100)
        #expect(roomy.reserve(count: 10, unit: 8) == 10 && !roomy.isSpent)
    }
}
