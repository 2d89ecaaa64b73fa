#if canImport(Glibc)
import Glibc
#endif
import ArcGISEngine
import FeatureGeometry
import QueryLanguage
import SampleFeatureServer
import Testing
import FeatureService

@Suite("Complete results: paging, the layer without pagination, limits")
struct PagingAndFallbackTests {
    @Test func shortPagesAreFollowedToTheEnd() async throws {
        let clause = "UseType = 'Residential'"
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(
            .parcels, where: clause, envelope: SampleDataset.seedExtent)
        try await ArcGISTestSupport.withEngine(faults: [FaultRule(.shortPages(maximum: 700))]) { server, engine in
            let query = ServiceQuery(
                whereClause: try WhereClause(clause), geometry: ArcGISTestSupport.seedExtent, result: .features)
            let result = try await engine.query(layer: server.layerURL(.parcels), query)
            #expect(result.selection.geoJSON?.objectIds.map { Int($0) } == truth)
            #expect(result.isComplete)
            #expect(server.statistics.faults(.shortPages) > 0)
        }
    }

    @Test func theLayerWithoutPaginationIsReadByObjectIDChunks() async throws {
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(.legacyParcels, where: "1=1")
        #expect(truth.count > 1_000)
        try await ArcGISTestSupport.withEngine { server, engine in
            let result = try await engine.query(
                layer: server.layerURL(.legacyParcels), ServiceQuery(returnGeometry: true, result: .features))
            #expect(result.selection.geoJSON?.objectIds.map { Int($0) } == truth)
            #expect(result.isComplete)
            let queries = server.statistics.recentQueries(.legacyParcels)
            #expect(queries.allSatisfy { $0.parameter("resultOffset") == nil })
            #expect(queries.contains { $0.parameter("returnIdsOnly") == "true" })
            let chunks = queries.filter { $0.parameter("objectIds") != nil }
            #expect(chunks.count == (truth.count + 499) / 500)
        }
    }

    @Test func maxFeaturesCutsTheResultAndSaysSo() async throws {
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(.parcels, envelope: SampleDataset.seedExtent)
        try await ArcGISTestSupport.withEngine { server, engine in
            for kind in [ServiceQuery.ResultKind.ids, .features] {
                let query = ServiceQuery(geometry: ArcGISTestSupport.seedExtent, maxFeatures: 2_500, result: kind)
                let result = try await engine.query(layer: server.layerURL(.parcels), query)
                #expect(ArcGISTestSupport.ids(result) == Array(truth.prefix(2_500)), "\(kind)")
                #expect(result.incompleteReason == .maxFeatures)
                #expect(!result.isComplete)
                #expect(result.count == truth.count)
            }
        }
    }

    @Test func aResultLargerThanTheMemoryLimitIsRefused() async throws {
        var configuration = ArcGISEngineConfiguration(retry: ArcGISTestSupport.fastRetries)
        configuration.maxFeaturesInMemory = 1_000
        try await ArcGISTestSupport.withEngine(configuration: configuration) { server, engine in
            await #expect { try await engine.query(layer: server.layerURL(.parcels), ServiceQuery(result: .features)) } throws: {
                ($0 as? FeatureServiceError)?.code == .limitExceeded
            }
            let ids = try await engine.query(layer: server.layerURL(.parcels), ServiceQuery(result: .ids))
            #expect(ids.count == ArcGISTestSupport.parcelCount)
            #expect(ArcGISTestSupport.ids(ids).count == ArcGISTestSupport.parcelCount)
        }
    }

    @Test func longQueriesGoAsPOSTAndAnswerTheSame() async throws {
        // A polygon with 400 vertices around the seed extent: its Esri JSON is far longer than a URL may be.
        let box = SampleDataset.seedExtent
        let ring = (0...400).map { step -> Position in
            let angle = Double(step) / 400 * 2 * Double.pi
            return Position(x: box.center.x + cos(angle) * box.width / 3, y: box.center.y + sin(angle) * box.height / 3)
        }
        let polygon = Geometry.polygon(Polygon(exterior: ring, spatialReference: .webMercator))
        try await ArcGISTestSupport.withEngine { server, engine in
            let query = ServiceQuery(whereClause: try WhereClause("UseType = 'Commercial'"), geometry: polygon)
            let result = try await engine.query(layer: server.layerURL(.parcels), query)
            let methods = Set(server.statistics.recentQueries(.parcels).map(\.method))
            #expect(methods == ["POST"])
            let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(
                .parcels, where: "UseType = 'Commercial'", envelope: nil)
            #expect(result.count > 0)
            #expect(Set(ArcGISTestSupport.ids(result)).isSubset(of: Set(truth)))
            #expect(result.isComplete)
        }
    }

    @Test func metadataIsLoadedOnceForManyQueries() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        _ = try await engine.query(layer: server.layerURL(.states), ServiceQuery(result: .count))
                    }
                }
                try await group.waitForAll()
            }
            #expect(server.statistics.metadataRequests == 1)
            engine.clearMetadataCache()
            _ = try await engine.query(layer: server.layerURL(.states), ServiceQuery(result: .count))
            #expect(server.statistics.metadataRequests == 2)
        }
    }
}
