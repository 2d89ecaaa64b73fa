import ArcGISEngine
import FeatureGeometry
import FeatureService
import SampleFeatureServer
import Testing

/// The request's byte budget (``ResultBudget``) bounds what the engine holds whatever `maxFeatures` asks: pages
/// are reserved as they arrive, and the first page the budget refuses stops the layer.
@Suite struct ResultBudgetTests {
    /// Issue 11, item 1.4: `maxFeatures: 100000000` with geometry on the parcels layer used to collect every
    /// feature (2.9 GB peak RSS on the 2.4M-parcel layer). With an 8 MiB budget it stops after a few pages.
    @Test func aFeaturesRequestBeyondTheBudgetIsCutWhilePagesArrive() async throws {
        let budget = ResultBudget(limit: 8 << 20)
        let pageSize = 2_000  // the parcels layer's maxRecordCount
        try await ArcGISTestSupport.withEngine { server, engine in
            let target = ServiceTarget(kind: .arcgis, url: server.layerURL(.parcels))
            let query = ServiceQuery(
                returnGeometry: true, outSpatialReference: .wgs84, maxFeatures: 100_000_000, result: .features)
            let outcomes = Array(await engine.query([target], query, budget: budget).joined())
            guard case .success(let layer)? = outcomes.first?.result, case .features(let features) = layer.selection else {
                Issue.record("the parcels layer did not answer features: \(String(describing: outcomes.first?.result))")
                return
            }
            #expect(layer.count == ArcGISTestSupport.parcelCount)
            #expect(!layer.isComplete, "a result cut by the budget is marked incomplete")
            #expect(features.count > 0 && features.count < layer.count)
            #expect(budget.isSpent)
            #expect(budget.used <= budget.limit)
            var held = 0
            for json in features.json { held += json.count }
            #expect(held <= budget.used, "the features kept are within what was reserved")
            #expect(features.objectIds == features.objectIds.sorted())
            let pages = server.statistics.recentQueries(.parcels).filter { $0.parameter("resultOffset") != nil }
            #expect(pages.count < (layer.count + pageSize - 1) / pageSize, "fetching stopped before the last page")
            print("""
                budget \(budget.limit) B: kept \(features.count) of \(layer.count) features, \(held) GeoJSON bytes, \
                \(budget.used) B reserved, \(pages.count) pages requested
                """)
        }
    }

    @Test func idsBeyondTheBudgetAreCutToAnAscendingPrefix() async throws {
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(.parcels, envelope: SampleDataset.seedExtent)
        #expect(truth.count > 1_000)
        let budget = ResultBudget(limit: 8 * 1_000)
        try await ArcGISTestSupport.withEngine { server, engine in
            let target = ServiceTarget(kind: .arcgis, url: server.layerURL(.parcels))
            let outcomes = Array(await engine.query(
                [target], ServiceQuery(geometry: ArcGISTestSupport.seedExtent, result: .ids), budget: budget).joined())
            guard case .success(let layer)? = outcomes.first?.result, case .objectIds(let ids) = layer.selection else {
                Issue.record("the parcels layer did not answer ids: \(String(describing: outcomes.first?.result))")
                return
            }
            #expect(ids.map { Int($0) } == Array(truth.prefix(1_000)))
            #expect(layer.count == truth.count)
            #expect(!layer.isComplete)
            #expect(budget.used == 8 * 1_000)
        }
    }

    @Test func aResultWithinTheBudgetIsComplete() async throws {
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(.parcels, envelope: SampleDataset.seedExtent)
        let budget = ResultBudget(limit: 64 << 20)
        try await ArcGISTestSupport.withEngine { server, engine in
            let target = ServiceTarget(kind: .arcgis, url: server.layerURL(.parcels))
            let query = ServiceQuery(
                geometry: ArcGISTestSupport.seedExtent, returnGeometry: true, outSpatialReference: .wgs84,
                maxFeatures: 100_000_000, result: .features)
            let outcomes = Array(await engine.query([target], query, budget: budget).joined())
            guard case .success(let layer)? = outcomes.first?.result, case .features(let features) = layer.selection else {
                Issue.record("the parcels layer did not answer features: \(String(describing: outcomes.first?.result))")
                return
            }
            #expect(layer.isComplete)
            #expect(features.objectIds.map { Int($0) } == truth)
            #expect(!budget.isSpent && budget.used > 0)
        }
    }

    @Test func aTargetOfAnotherKindFailsAloneAsUnsupported() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let targets = [
                ServiceTarget(kind: .ogc, url: "http://127.0.0.1:1/ogc", layers: ["parcels"]),
                ServiceTarget(kind: .arcgis, url: server.serviceURL(.usa), layers: ["0"]),
            ]
            let outcomes = Array(await engine.query(targets, ServiceQuery(result: .count), budget: .unlimited()).joined())
            #expect(outcomes.map(\.url) == ["http://127.0.0.1:1/ogc", server.layerURL(.cities)])
            guard case .failure(let error)? = outcomes.first?.result else {
                Issue.record("the OGC target should have failed")
                return
            }
            #expect(error.code == .unsupportedTarget)
            guard case .success(let cities)? = outcomes.last?.result, case .countOnly = cities.selection else {
                Issue.record("the cities layer should have been counted")
                return
            }
            #expect(cities.count > 0 && cities.isComplete)
        }
    }
}
