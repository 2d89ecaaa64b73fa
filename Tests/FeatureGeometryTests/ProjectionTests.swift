import FeatureGeometry
import PropertyBased
import Testing

@Suite("Spatial references and Web Mercator projection")
struct ProjectionTests {
    /// Reference values computed independently (Python's math module, same closed-form formulas).
    static let references: [(longitude: Double, latitude: Double, x: Double, y: Double)] = [
        (0, 0, 0, 0),
        (180, 0, 20037508.342789244, 0),
        (-180, 0, -20037508.342789244, 0),
        (0, 85.05112878, 0, 20037508.343038812),
        (-118.805, 34.03, -13225312.103694867, 4032831.0048556984),
        (-118.15, 33.80, -13152397.837225273, 4001978.423556837),
        (2.2945, 48.8584, 255422.57162516622, 6250868.901479604),
        (151.2153, -33.8568, 16833210.196152102, -4009589.934222665),
        (0, 89.9, 0, 20037508.343038812),  // clamped to 85.05112878
    ]

    @Test(arguments: 0..<references.count)
    func projectsKnownPlaces(_ index: Int) {
        let reference = Self.references[index]
        let projected = WebMercator.project(longitude: reference.longitude, latitude: reference.latitude)
        #expect(abs(projected.x - reference.x) < 1e-6)
        #expect(abs(projected.y - reference.y) < 1e-6)
    }

    @Test func worldEdgeIsHalfTheEquator() {
        #expect(abs(WebMercator.halfWorld - 20037508.342789244) < 1e-6)
        let corner = WebMercator.unproject(x: WebMercator.halfWorld, y: WebMercator.halfWorld)
        #expect(abs(corner.x - 180) < 1e-9)
        #expect(abs(corner.y - 85.0511287798) < 1e-9)
    }

    @Test func roundTripFromDegreesIsWithinANanodegree() async {
        await propertyCheck(count: 500, input: Gen.double(in: -180...180), Gen.double(in: -85.05112878...85.05112878)) {
            longitude, latitude in
            let back = WebMercator.unproject(WebMercator.project(longitude: longitude, latitude: latitude))
            #expect(abs(back.x - longitude) <= 1e-9)
            #expect(abs(back.y - latitude) <= 1e-9)
        }
    }

    @Test func roundTripFromMetersIsWithinAMicrometer() async {
        let range = -WebMercator.halfWorld...WebMercator.halfWorld
        await propertyCheck(count: 500, input: Gen.double(in: range), Gen.double(in: range)) { x, y in
            let back = WebMercator.project(WebMercator.unproject(x: x, y: y))
            #expect(abs(back.x - x) <= 1e-6)
            #expect(abs(back.y - y) <= 1e-6)
        }
    }

    @Test func projectedGeometriesKeepShapeAndCarryTheTarget() throws {
        let polygon = Geometry.polygon(Polygon(exterior: square(-118.81, 34.02, 0.01), holes: [square(-118.807, 34.023, 0.002, clockwise: false)],
                                               spatialReference: .wgs84))
        let mercator = try polygon.projected(to: .webMercator)
        #expect(mercator.spatialReference == .webMercator)
        guard case .polygon(let projected) = mercator else { Issue.record("not a polygon"); return }
        #expect(projected.signedArea < 0)  // winding kept
        let back = try mercator.projected(to: SpatialReference(wkid: 4326))
        guard case .polygon(let original) = polygon, case .polygon(let returned) = back else {
            Issue.record("the round trip is not a polygon: \(back)")
            return
        }
        let (before, after) = (Array(original.rings.joined()), Array(returned.rings.joined()))
        #expect(original.rings.map(\.count) == returned.rings.map(\.count))
        #expect(before.count == after.count && !before.isEmpty)
        for (a, b) in zip(before, after) {
            #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9)
        }
    }

    @Test func envelopesProjectByTheirCorners() throws {
        let envelope = Envelope(xmin: -118.9, ymin: 33.9, xmax: -118.7, ymax: 34.1, spatialReference: .wgs84)
        let projected = try envelope.projected(to: SpatialReference(wkid: 900913))
        let low = WebMercator.project(longitude: -118.9, latitude: 33.9)
        let high = WebMercator.project(longitude: -118.7, latitude: 34.1)
        #expect(projected.xmin == low.x && projected.ymin == low.y && projected.xmax == high.x && projected.ymax == high.y)
        #expect(projected.spatialReference?.wkid == 900913)
        #expect(try Geometry.envelope(envelope).projected(to: .webMercator) == .envelope(projected))
    }

    @Test func aliasesOfWebMercatorAreOneSpatialReference() throws {
        for wkid in [3857, 102100, 102113, 900913, 3785] {
            let reference = SpatialReference(wkid: wkid)
            #expect(reference.isWebMercator && reference == .webMercator && reference.canonicalWKID == 3857)
            #expect(reference.hashValue == SpatialReference.webMercator.hashValue)
        }
        #expect(SpatialReference(wkid: 4326, latestWkid: 4326).isWGS84)
        #expect(SpatialReference(wkid: 2229) != .wgs84)
        let same = try point(1, 2).withReference(SpatialReference(wkid: 102113)).projected(to: SpatialReference(wkid: 3857))
        #expect(same == point(1, 2).withReference(SpatialReference(wkid: 3857)))
        #expect(SpatialReference.webMercator.description == "WKID 102100 (latest 3857)")
    }

    @Test func unsupportedAndMissingSpatialReferencesAreTypedErrors() {
        let error = expectGeometryError(.unsupportedSpatialReference) {
            _ = try point(1, 2).withReference(SpatialReference(wkid: 2229)).projected(to: .wgs84)
        }
        #expect(error?.message.contains("outSR") == true)
        expectGeometryError(.missingSpatialReference) { _ = try point(1, 2).projected(to: .wgs84) }
        expectGeometryError(.missingSpatialReference) {
            _ = try Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1).projected(to: .wgs84)
        }
    }
}

extension Geometry {
    func withReference(_ reference: SpatialReference) -> Geometry {
        var copy = self
        copy.spatialReference = reference
        return copy
    }
}
