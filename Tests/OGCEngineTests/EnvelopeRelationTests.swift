import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import SampleFeatureServer
import Testing

@testable import OGCEngine

/// `envelopeIntersects` over OGC: `bbox` selects by a feature's geometry, so the engine must not trust it for a
/// relation on envelopes. On meandering curves, boxes exist that a curve's envelope meets and the curve does
/// not; those curves must be selected, and nothing whose envelope misses the box.
@Suite("OGC envelopeIntersects")
struct EnvelopeRelationTests {
    @Test func envelopeIntersectsSelectsCurvesWhoseShapeMissesTheBox() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let collection = "TransportationGroundCrv"
            var extra = 0
            for step in 0..<4 {
                let west = 36.05 + Double(step) * 0.1
                let box = Envelope(xmin: west, ymin: 32.70, xmax: west + 0.02, ymax: 32.72, spatialReference: .wgs84)
                let exact = try #require(await SampleServerInteropTests.run(
                    engine, server.ogcURL, ServiceQuery(geometry: .envelope(box), result: .ids), collection: collection).success)
                let outcome = await SampleServerInteropTests.run(
                    engine, server.ogcURL,
                    ServiceQuery(geometry: .envelope(box), spatialRelationship: .envelopeIntersects, returnGeometry: true, result: .features),
                    collection: collection)
                let byEnvelope = try #require(outcome.success)
                #expect(byEnvelope.filteredBy == .client)
                #expect(byEnvelope.isComplete)
                #expect(Set(exact.featureIds).isSubset(of: Set(byEnvelope.featureIds)), "every curve that meets the box")
                guard case .features(let features) = byEnvelope.selection else {
                    Issue.record("no features")
                    return
                }
                for json in features.json {
                    let extent = try #require(Self.extent(of: json))
                    #expect(extent.intersects(box), "a selected curve's envelope meets the box")
                }
                extra += byEnvelope.featureIds.count - exact.featureIds.count
            }
            #expect(extra > 0, "some curve's envelope meets a box its shape misses (the case bbox alone would lose)")
        }
    }

    /// The envelope of a GeoJSON feature's line or polygon coordinates.
    static func extent(of feature: ArraySlice<UInt8>) -> Envelope? {
        guard let parsed = try? ParsedJSON(reading: Array(feature)), case .object(let members) = parsed,
              case .object(let geometry)? = members["geometry"], let coordinates = geometry["coordinates"] else { return nil }
        var box: (Double, Double, Double, Double) = (.infinity, .infinity, -.infinity, -.infinity)
        func visit(_ value: ParsedJSON) {
            guard case .array(let items) = value else { return }
            if items.count >= 2, case .number(let x) = items[0], case .number(let y) = items[1] {
                box = (min(box.0, x), min(box.1, y), max(box.2, x), max(box.3, y))
            } else {
                items.forEach(visit)
            }
        }
        visit(coordinates)
        guard box.0 <= box.2 else { return nil }
        return Envelope(xmin: box.0, ymin: box.1, xmax: box.2, ymax: box.3, spatialReference: .wgs84)
    }
}
