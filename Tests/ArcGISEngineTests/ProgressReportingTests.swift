import ArcGISEngine
import FeatureGeometry
import FeatureService
import SampleFeatureServer
import Synchronization
import Testing

/// The engine tells the request's ``ProgressSink`` of every page it reads, with the count that planned the
/// pages, and of each layer's end; without a sink nothing changes.
@Suite struct ProgressReportingTests {
    final class Recorder: ProgressSink {
        let pages = Mutex<[(layer: ProgressLayer, features: Int, expected: Int?)]>([])
        let finished = Mutex<[ProgressLayer]>([])
        func pageRead(_ layer: ProgressLayer, features: Int, expected: Int?) {
            pages.withLock { $0.append((layer, features, expected)) }
        }
        func layerFinished(_ layer: ProgressLayer) { finished.withLock { $0.append(layer) } }
    }

    @Test func countPlannedFeaturePagesAreReportedWithTheirTotal() async throws {
        let recorder = Recorder()
        try await ArcGISTestSupport.withEngine { server, engine in
            let url = server.layerURL(.parcels)
            let query = ServiceQuery(maxFeatures: 5_000, result: .features)
            let outcomes = Array(await engine.query(
                [ServiceTarget(kind: .arcgis, url: url)], query, budget: ResultBudget(limit: 64 << 20, progress: recorder)).joined())
            guard case .success(let layer)? = outcomes.first?.result, case .features(let features) = layer.selection else {
                Issue.record("no features: \(String(describing: outcomes.first?.result))")
                return
            }
            let pages = recorder.pages.withLock { $0 }
            #expect(pages.count == 3, "5 000 features in pages of 2 000")
            #expect(pages.map(\.features).reduce(0, +) == features.count)
            #expect(pages.allSatisfy { $0.expected == 5_000 && $0.layer == ProgressLayer(url: url, layerId: 0) })
            #expect(recorder.finished.withLock { $0 } == [ProgressLayer(url: url, layerId: 0)])
        }
    }

    @Test func anIdsPageIsReported() async throws {
        let recorder = Recorder()
        try await ArcGISTestSupport.withEngine { server, engine in
            let url = server.layerURL(.parcels)
            let query = ServiceQuery(geometry: ArcGISTestSupport.seedExtent, result: .ids)
            let outcomes = Array(await engine.query(
                [ServiceTarget(kind: .arcgis, url: url)], query, budget: ResultBudget(limit: 64 << 20, progress: recorder)).joined())
            guard case .success(let layer)? = outcomes.first?.result, case .objectIds(let ids) = layer.selection else {
                Issue.record("no ids: \(String(describing: outcomes.first?.result))")
                return
            }
            let pages = recorder.pages.withLock { $0 }
            #expect(pages.map(\.features) == [ids.count])
            #expect(recorder.finished.withLock { $0.count } == 1)
        }
    }
}
