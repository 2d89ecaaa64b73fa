import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import Foundation
import PygeoapiFixture
import QueryLanguage
import Testing

@testable import OGCEngine
import CurlHTTP

/// The engine against pygeoapi, a server nobody here wrote (Tests/PygeoapiFixture: GeoJSON-file and PostGIS
/// collections of the sample cities and states; docs/pygeoapi.md). pygeoapi 0.21 declares no CQL2, so where
/// clauses run in the worker (simple equalities go as queryable parameters); the answers must equal the ground
/// truth from the GeoJSON file either way.
@Suite("OGC engine against pygeoapi", .enabled(if: PygeoapiSampleService.isAvailable))
struct PygeoapiInteropTests {
    static func run(_ collection: String, _ query: ServiceQuery) async throws -> ServiceLayerOutcome {
        let service = try await PygeoapiSampleService.shared()
        let client = try HTTPClientFixture.make()
        let engine = OGCEngine(httpClient: client, configuration: OGCTestServer.fastConfiguration, logger: OGCTestServer.logger)
        let outcomes = await engine.query(
            [ServiceTarget(kind: .ogc, url: service.landingURL, layers: [collection])], query, budget: .unlimited())
        await client.shutdown()
        return outcomes[0][0]
    }

    /// The ids of the file's features the clause selects (and that `box` holds, when given).
    static func truth(_ dataset: PygeoapiSampleService.Dataset, where clause: String, box: Envelope? = nil) throws -> Set<Int64> {
        let filter = try WhereClause(clause).compile(fieldNames: dataset.fieldNames)
        let file = try ParsedJSON(reading: Array(try Data(contentsOf: URL(fileURLWithPath: dataset.geoJSONPath))))
        var ids: Set<Int64> = []
        for feature in file["features"]?.arrayValue ?? [] {
            guard case .number(let id)? = feature["id"], let integer = Int64(exactly: id) else { continue }
            let record = dataset.fieldNames.map { FilterPlan.attribute(feature["properties"]?[$0], temporal: false) }
            guard filter.matches(record) else { continue }
            if let box {
                guard let value = feature["geometry"], let geometry = try? GeoJSON.decode(value),
                    (try? SpatialFilter(geometry: .envelope(box)).matches(geometry)) == true
                else { continue }
            }
            ids.insert(integer)
        }
        return ids
    }

    static func integers(_ result: ServiceLayerResult) -> [Int64] {
        result.featureIds.compactMap { if case .integer(let value)? = $0 { value } else { nil } }
    }

    @Test(arguments: ["cities", "cities_postgis"])
    func whereClausesGiveTheGroundTruth(collection: String) async throws {
        let service = try await PygeoapiSampleService.shared()
        for clause in ["POP2000 > 50000 AND ST IN ('CA', 'TX', 'NY')", "ST = 'CA' AND POP2000 > 100000"] {
            let outcome = try await Self.run(collection, ServiceQuery(whereClause: try WhereClause(clause), result: .ids))
            let result = try #require(outcome.success, "\(clause): \(String(describing: outcome.failure))")
            let truth = try Self.truth(service.cities, where: clause)
            #expect(truth.count > 5)
            #expect(Set(Self.integers(result)) == truth && result.featureIds.count == truth.count, "\(collection): \(clause)")
            #expect(result.count == truth.count && result.isComplete)
            #expect(result.filteredBy == .client)
        }
    }

    @Test(arguments: ["cities", "cities_postgis", "states", "states_postgis"])
    func wholeCollectionsPageCompletely(collection: String) async throws {
        let service = try await PygeoapiSampleService.shared()
        let expected = collection.hasPrefix("cities") ? service.cities.featureCount : service.states.featureCount
        let outcome = try await Self.run(collection, ServiceQuery(returnGeometry: true, result: .features))
        let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
        #expect(Set(Self.integers(result)) == Set((1...expected).map { Int64($0) }))
        #expect(result.featureIds.count == expected && result.count == expected && result.isComplete)
    }

    /// A box across the antimeridian: split in two for the server (pygeoapi's GeoJSON provider matches the
    /// complement of a wrapping box), merged, and checked here.
    @Test(arguments: ["cities", "cities_postgis"])
    func aBoxAcrossTheAntimeridianGivesTheGroundTruth(collection: String) async throws {
        let service = try await PygeoapiSampleService.shared()
        // 170°E eastwards to 100°W (260 - 360): the cities west of 100°W.
        let box = Envelope(xmin: 170, ymin: -60, xmax: 260, ymax: 75, spatialReference: .wgs84)
        let outcome = try await Self.run(collection, ServiceQuery(geometry: .envelope(box), result: .ids))
        let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
        let truth = try Self.truth(service.cities, where: "1 = 1", box: Envelope(xmin: 170, ymin: -60, xmax: 180, ymax: 75, spatialReference: .wgs84))
            .union(try Self.truth(service.cities, where: "1 = 1", box: Envelope(xmin: -180, ymin: -60, xmax: -100, ymax: 75, spatialReference: .wgs84)))
        #expect(!truth.isEmpty)
        #expect(Set(Self.integers(result)) == truth && result.featureIds.count == truth.count)
        #expect(result.isComplete)
    }
}
