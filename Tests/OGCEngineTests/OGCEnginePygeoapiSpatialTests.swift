import FeatureGeometry
import FeatureService
import PygeoapiFixture
import SampleFeatureServer
import Testing

@testable import OGCEngine

/// The OGC engine's spatial queries against pygeoapi 0.21, on both providers: envelopes in WGS 84 and Web
/// Mercator sent as a CRS84 `bbox`, and a box across the antimeridian, which pygeoapi gets wrong when sent
/// as one `bbox` (docs/pygeoapi.md) and the engine sends as two. Truth is the sample dataset's.
@Suite(.enabled(if: PygeoapiSampleService.isAvailable, "pygeoapi, PostgreSQL or ogr2ogr missing: run scripts/setup-deps"))
struct OGCEnginePygeoapiSpatialTests {
    /// An envelope in WGS 84 and the same in Web Mercator: sent as a CRS84 `bbox`, right on points and polygons.
    @Test(arguments: OGCEnginePygeoapiTests.providers)
    func envelopesSelectWhatIntersects(_ provider: OGCEnginePygeoapiTests.Provider) async throws {
        let service = try await PygeoapiSampleService.shared()
        let box = Envelope(xmin: -100, ymin: 30, xmax: -90, ymax: 40, spatialReference: .wgs84)
        try await RealServerSupport.withEngine { engine, log in
            for (layer, dataset) in [(SampleLayer.cities, service.cities), (.states, service.states)] {
                let truth = try OGCEnginePygeoapiTests.truth(layer, envelope: box)
                #expect(truth.count > 3, "\(layer)")
                for geometry in [Geometry.envelope(box), .envelope(try box.projected(to: .webMercator))] {
                    let result = try await OGCEnginePygeoapiTests.query(engine, provider.collection(dataset), ServiceQuery(geometry: geometry))
                    #expect(try RealServerSupport.sortedIntegerIDs(result) == truth, "\(layer) \(geometry)")
                    #expect(result.count == truth.count, "\(layer)")
                    #expect(result.isComplete)
                    #expect(result.filteredBy != nil)
                    if layer == .cities { #expect(result.filteredBy == .server, "points in a bbox: the server's answer is exact") }
                }
            }
            #expect(log.items.allSatisfy { $0.contains("bbox=") })
        }
    }

    /// A query box across the antimeridian (170°E to 110°W: the Pacific and the western states), which
    /// pygeoapi answers with the complement when sent as one `bbox` (west > east): the engine sends two
    /// boxes, one each side, and gets it right. The box says it by an east edge beyond 180° (in WGS 84, or in
    /// Web Mercator beyond its half-width): an `Envelope` orders its edges, so west > east cannot be said,
    /// and the worker's contract refuses it.
    @Test(arguments: OGCEnginePygeoapiTests.providers)
    func anAntimeridianBoxIsSplitAndRight(_ provider: OGCEnginePygeoapiTests.Provider) async throws {
        let service = try await PygeoapiSampleService.shared()
        let west = Envelope(xmin: 170, ymin: 20, xmax: 180, ymax: 50, spatialReference: .wgs84)
        let east = Envelope(xmin: -180, ymin: 20, xmax: -110, ymax: 50, spatialReference: .wgs84)
        let truth = Set(try OGCEnginePygeoapiTests.truth(.cities, envelope: west) + OGCEnginePygeoapiTests.truth(.cities, envelope: east)).sorted()
        #expect(truth.count > 50)
        #expect(truth.count < service.cities.featureCount / 2)
        let degrees = Envelope(xmin: 170, ymin: 20, xmax: 250, ymax: 50, spatialReference: .wgs84)
        for crossing in [degrees, try degrees.projected(to: .webMercator)] {
            try await RealServerSupport.withEngine { engine, log in
                let result = try await OGCEnginePygeoapiTests.query(
                    engine, provider.collection(service.cities), ServiceQuery(geometry: .envelope(crossing)))
                #expect(try RealServerSupport.sortedIntegerIDs(result) == truth, "\(crossing)")
                #expect(result.count == truth.count)
                #expect(result.isComplete)
                #expect(result.filteredBy == .server)
                // Two boxes, one each side (to within the Web Mercator round trip's last digits).
                let boxes = Set(log.items.compactMap { url -> [Double]? in
                    guard let box = url.split(separator: "?").last?.split(separator: "&").first(where: { $0.hasPrefix("bbox=") })
                    else { return nil }
                    return box.dropFirst(5).split(separator: ",").compactMap { Double($0).map { ($0 * 1e6).rounded() / 1e6 } }
                })
                #expect(boxes == [[170, 20, 180, 50], [-180, 20, -110, 50]], "\(log.items)")
            }
        }
    }
}
