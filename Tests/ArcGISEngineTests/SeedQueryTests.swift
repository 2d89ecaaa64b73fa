import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage
import SampleFeatureServer
import Testing

@testable import ArcGISEngine
import FeatureService

@Suite("The seed's queries against the sample server")
struct SeedQueryTests {
    static let clauses = NamedQueryCatalog.builtInExamples.map(\.clause)

    @Test(arguments: clauses)
    func selectionMatchesWhatTheDataHolds(_ clause: String) async throws {
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(
            .parcels, where: clause, envelope: SampleDataset.seedExtent)
        try await ArcGISTestSupport.withEngine { server, engine in
            let query = ServiceQuery(whereClause: try WhereClause(clause), geometry: ArcGISTestSupport.seedExtent)
            let result = try await engine.query(layer: server.layerURL(.parcels), query)
            #expect(ArcGISTestSupport.ids(result) == truth)
            #expect(result.count == truth.count)
            #expect(result.isComplete)
            #expect(result.objectIdField == "OBJECTID")

            var countQuery = query
            countQuery.result = .count
            let counted = try await engine.query(layer: server.layerURL(.parcels), countQuery)
            #expect(counted.count == truth.count)
            #expect(counted.selection.isCountOnly)
        }
    }

    @Test func featuresOfAManyPageClauseAreCompleteAndInOrder() async throws {
        let clause = "Roll_LandValue < 1000000"
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(
            .parcels, where: clause, envelope: SampleDataset.seedExtent)
        #expect(truth.count > 2_000, "the clause should need more than one page of 2,000")
        try await ArcGISTestSupport.withEngine { server, engine in
            let query = ServiceQuery(
                whereClause: try WhereClause(clause), geometry: ArcGISTestSupport.seedExtent, returnGeometry: true,
                outSpatialReference: .wgs84, result: .features)
            let result = try await engine.query(layer: server.layerURL(.parcels), query)
            let features = try #require(result.selection.geoJSON)
            #expect(features.objectIds.map { Int($0) } == truth)
            #expect(result.isComplete)
            let parsed = try features.parsed()
            #expect(parsed.allSatisfy { $0["geometry"]?.objectValue != nil && $0["properties"]?["UseType"] != nil })
            let offsets = server.statistics.recentQueries(.parcels).compactMap { $0.parameter("resultOffset") }
            #expect(Set(offsets).count == (truth.count + 1_999) / 2_000)
            let first = try #require(features.json.first)
            #expect(first.starts(with: #"{"type":"Feature","id":"#.utf8))
            #expect(features.featureCollection().starts(with: #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"#.utf8))
        }
    }

    @Test func usaSublayerFanOutWithOneSublayerFailing() async throws {
        let dataset = try ArcGISTestSupport.dataset()
        let clause = "POP2000 > 50000"
        try await ArcGISTestSupport.withEngine(
            faults: [FaultRule(.http500, pathContains: "USA/MapServer/2/query")]
        ) { server, engine in
            let target = ArcGISTarget(url: server.serviceURL(.usa), layers: [0, 2, 3])
            let outcomes = await engine.query([target], ServiceQuery(whereClause: try WhereClause(clause)))
            #expect(outcomes.map(\.url) == [server.layerURL(.cities), server.layerURL(.states), server.layerURL(.counties)])
            let cities = try #require(outcomes[0].success)
            #expect(ArcGISTestSupport.ids(cities) == (try dataset.groundTruthObjectIDs(.cities, where: clause)))
            let counties = try #require(outcomes[2].success)
            #expect(ArcGISTestSupport.ids(counties) == (try dataset.groundTruthObjectIDs(.counties, where: clause)))
            let failure = try #require(outcomes[1].failure)
            #expect(failure.httpStatus == 500)
            #expect(failure.isRetryable)
            #expect(failure.layer == server.layerURL(.states))
        }
    }

    @Test func aServiceTargetWithoutLayersQueriesEveryFeatureLayer() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let extent = Geometry.envelope(Envelope(
                xmin: -13_500_000, ymin: 3_800_000, xmax: -12_000_000, ymax: 5_000_000, spatialReference: .webMercator))
            let query = ServiceQuery(whereClause: try WhereClause("POP2000 > 1000"), geometry: extent)
            let outcomes = await engine.query([ArcGISTarget(url: server.serviceURL(.usa))], query)
            // Every feature layer, and only those: the raster layer (USA/MapServer/4) cannot be queried, and
            // including it made every whole-service result `partial`.
            #expect(outcomes.map(\.url) == [SampleLayer.cities, .highways, .states, .counties].map { server.layerURL($0) })
            for layer in [SampleLayer.cities, .highways, .states, .counties] {
                let outcome = try #require(outcomes.first { $0.url == server.layerURL(layer) })
                let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(
                    layer, where: "POP2000 > 1000", envelope: extent.extent)
                #expect(outcome.success.map(ArcGISTestSupport.ids) == truth, "\(layer)")
            }
        }
    }

    @Test func aRasterLayerNamedInLayersStillFailsAsThatLayer() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let outcomes = await engine.query(
                [ArcGISTarget(url: server.serviceURL(.usa), layers: [0, 4])], ServiceQuery(whereClause: try WhereClause("POP2000 > 1000")))
            #expect(outcomes.map(\.url) == [server.layerURL(.cities), server.layerURL(.elevation)])
            #expect(outcomes.first?.success != nil)
            #expect(outcomes.last?.failure?.code == .unsupportedLayer)
        }
    }

    @Test func wholeServicesExpandingPastTheLayerBoundFailEveryTarget() async throws {
        var configuration = ArcGISEngineConfiguration(retry: ArcGISTestSupport.fastRetries)
        configuration.maxLayersPerQuery = 4
        try await ArcGISTestSupport.withEngine(configuration: configuration) { server, engine in
            let query = ServiceQuery(whereClause: try WhereClause("POP2000 > 1000"))
            // The USA service has 4 feature layers: alone it fits, with one more layer it does not.
            let fits = await engine.query([ArcGISTarget(url: server.serviceURL(.usa))], query)
            #expect(fits.count == 4 && fits.allSatisfy { $0.success != nil })
            let targets = [ArcGISTarget(url: server.serviceURL(.usa)), ArcGISTarget(url: server.layerURL(.parcels))]
            let refused = await engine.query(targets, query)
            #expect(refused.count == 2)
            #expect(refused.allSatisfy { $0.failure?.code == .tooManyLayers && $0.failure?.isRetryable == false })
            #expect(refused.first?.failure?.message.contains("5 layers") == true)
        }
    }
}

@Suite("Features as GeoJSON")
struct GeoJSONOutputTests {
    /// The features the engine transcodes page by page are the ones the reference conversion writes from the
    /// same layer's Esri JSON (``FeatureGeoJSON``, which the transcoder falls back to for unusual pages).
    @Test func geoJSONOutputMatchesTheReferenceConversion() async throws {
        let clause = "UseType = 'Government'"
        try await ArcGISTestSupport.withEngine { server, engine in
            let query = ServiceQuery(
                whereClause: try WhereClause(clause), geometry: ArcGISTestSupport.seedExtent, returnGeometry: true,
                outSpatialReference: .wgs84, result: .features)
            let encoded = try await engine.query(layer: server.layerURL(.parcels), query)
            let geoJSON = try #require(encoded.selection.geoJSON)
            #expect(encoded.isComplete)
            #expect(!geoJSON.objectIds.isEmpty)
            let ids = geoJSON.objectIds.prefix(50).map(String.init).joined(separator: ",")
            let body = try await ArcGISTestSupport.fetch(
                server.layerURL(.parcels) + "/query?f=json&outFields=*&returnGeometry=true&outSR=4326&objectIds=\(ids)")
            let page = try ArcGISResponse.featurePage(body, layer: encoded.url, objectIdField: "OBJECTID")
            let reference = page.features.sorted { $0.objectId < $1.objectId }
            #expect(reference.map(\.objectId) == Array(geoJSON.objectIds.prefix(50)))
            let expected = try ParsedJSON(parsing: FeatureGeoJSON.featureCollection(
                reference, fieldOrder: page.fieldOrder, layer: encoded.url))
            let first50 = GeoJSONFeatureList(objectIds: Array(geoJSON.objectIds.prefix(50)), json: Array(geoJSON.json.prefix(50)))
            #expect(try ParsedJSON(parsing: first50.featureCollection()) == expected)
        }
    }

    @Test func theLayerWithoutPaginationGivesGeoJSONToo() async throws {
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(.legacyParcels, where: "UseType = 'Residential'")
        try await ArcGISTestSupport.withEngine { server, engine in
            let query = ServiceQuery(
                whereClause: try WhereClause("UseType = 'Residential'"), returnGeometry: true,
                outSpatialReference: .wgs84, result: .features)
            let result = try await engine.query(layer: server.layerURL(.legacyParcels), query)
            #expect(result.selection.geoJSON?.objectIds.map { Int($0) } == truth)
            #expect(result.isComplete)
        }
    }
}
