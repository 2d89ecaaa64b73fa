import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import Foundation
import PygeoapiFixture
import SampleFeatureServer
import Testing

@testable import OGCEngine

/// Spatial relations other than intersects against pygeoapi's states (polygons), whose `bbox` tests
/// intersection only, so the engine sends the box and decides the relation itself. In ArcGIS's direction
/// (the query geometry relates to the feature): a box `contains` the states whose extent lies in it, its
/// `envelopeIntersects` the states whose extent meets it (both read here from the GeoJSON file pygeoapi
/// serves), and a small box lies `within` the one state around it.
@Suite(.enabled(if: PygeoapiSampleService.isAvailable, "pygeoapi, PostgreSQL or ogr2ogr missing: run scripts/setup-deps"))
struct OGCEnginePygeoapiRelationTests {
    /// Each state's id and extent, from the file.
    static func extents(_ dataset: PygeoapiSampleService.Dataset) throws -> [(id: Int, extent: Envelope)] {
        let file = try ParsedJSON(reading: Array(try Data(contentsOf: URL(fileURLWithPath: dataset.geoJSONPath))))
        return try (file["features"]?.arrayValue ?? []).map { feature in
            guard case .number(let id)? = feature["id"], let integer = Int(exactly: id), let geometry = feature["geometry"],
                let extent = try GeoJSON.decode(geometry).extent
            else { throw RealServerFailure("a state without id or geometry") }
            return (integer, extent)
        }
    }

    static let box = Envelope(xmin: -100, ymin: 24, xmax: -80, ymax: 42, spatialReference: .wgs84)

    @Test(arguments: OGCEnginePygeoapiTests.providers)
    func relationsOtherThanIntersectsAreDecidedInTheWorker(_ provider: OGCEnginePygeoapiTests.Provider) async throws {
        let service = try await PygeoapiSampleService.shared()
        let extents = try Self.extents(service.states)
        let contained = extents.filter { Self.box.contains($0.extent) }.map(\.id).sorted()
        let envelopes = extents.filter { Self.box.intersects($0.extent) }.map(\.id).sorted()
        let exact = try OGCEnginePygeoapiTests.truth(.states, envelope: Self.box)
        #expect(!contained.isEmpty && contained.count < exact.count)
        let small = Envelope(xmin: -98.01, ymin: 35.01, xmax: -98, ymax: 35.02, spatialReference: .wgs84)
        let around = try OGCEnginePygeoapiTests.truth(.states, envelope: small)
        #expect(around.count == 1)
        try await RealServerSupport.withEngine { engine, _ in
            for (box, relation, truth) in [
                (Self.box, SpatialRelation.contains, contained), (Self.box, .envelopeIntersects, envelopes), (Self.box, .intersects, exact),
                (small, .within, around),
            ] {
                let result = try await OGCEnginePygeoapiTests.query(
                    engine, provider.collection(service.states), ServiceQuery(geometry: .envelope(box), spatialRelationship: relation))
                #expect(try RealServerSupport.sortedIntegerIDs(result) == truth, "\(relation)")
                #expect(result.count == truth.count, "\(relation)")
                #expect(result.isComplete, "\(relation)")
                // Only intersects is what `bbox` asks; envelopeIntersects is decided in the worker on every feature
                // (a `bbox` answer would miss features whose envelope meets the box but whose shape does not).
                #expect(result.filteredBy == (relation == .intersects ? .server : .client), "\(relation)")
            }
        }
    }
}
