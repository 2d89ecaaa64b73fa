import FeatureQuerySupport
import PygeoapiFixture
import Testing
import WorkerTestSupport

/// Distinct values and extents of the OGC collections against SQL (the worker computes both: OGC API
/// Features has neither).
extension WorkerOGCTableTruthTests {
    @Test
    func distinctAndExtentAgreeWithSQL() async throws {
        let harness = try await WorkerHarness()
        let truth = try await SalesTruth.shared(for: harness)
        let targets = try Self.targets(harness, truth)
        let queries = [
            ("distinct", #"{"outFields":["UseType","DocType"],"result":"distinct"}"#),
            ("extent", #"{"where":"DocType = 'Sheriff Deed'","result":"extent"}"#),
        ]
        for (target, landing, collection) in targets {
            for (name, query) in queries {
                let id = "\(name)-\(target)"
                try await harness.send(id, WorkerHarness.ogcRequest(id, landing: landing, collection: collection, query: query))
            }
        }
        let outcomes = try await harness.outcomesByRequest(targets.count * queries.count).compactMapValues(\.first)

        let pairs = try await truth.rows(#"SELECT DISTINCT "UseType", "DocType" FROM parcel_sales"#)
        let expectedPairs = Set(pairs.map { TableComparison.key([$0["UseType"], $0["DocType"]]) })
        // Both the layer's Web Mercator and WGS 84: the answer's spatial reference says which to compare with.
        let boxes = try await truth.rows(#"""
            SELECT ST_XMin(m) AS xmin, ST_YMin(m) AS ymin, ST_XMax(m) AS xmax, ST_YMax(m) AS ymax,
                ST_XMin(g) AS lon_min, ST_YMin(g) AS lat_min, ST_XMax(g) AS lon_max, ST_YMax(g) AS lat_max, n FROM (
                SELECT ST_Extent(ST_Transform(geom, 3857)) AS m, ST_Extent(geom) AS g, count(*) AS n
                FROM parcel_sales WHERE "DocType" = 'Sheriff Deed') t
            """#)
        let box = try #require(boxes.first)
        for (target, _, _) in targets {
            let distinct = outcomes["distinct-\(target)"]
            #expect(distinct?.status == "succeeded", "\(target): \(String(describing: distinct))")
            #expect(distinct?.firstLayer?.text("distinctBy") == "worker", "\(target)")
            let actual = (distinct?.firstLayer?.elements("distinct") ?? []).map { TableComparison.key([$0["UseType"], $0["DocType"]]) }
            #expect(actual.count == Set(actual).count && Set(actual) == expectedPairs, "\(target): \(actual.sorted())")

            let extent = outcomes["extent-\(target)"]
            #expect(extent?.status == "succeeded", "\(target): \(String(describing: extent))")
            let layer = extent?.firstLayer
            #expect(layer?.integer("count") == box["n"]?.numberValue.flatMap { Int(exactly: $0) }, "\(target)")
            let answer = layer?["extent"]
            let wgs84 = answer?["spatialReference"]?.integer("wkid") == 4326 || answer?["spatialReference"] == nil
            let names = wgs84 ? ["lon_min", "lat_min", "lon_max", "lat_max"] : ["xmin", "ymin", "xmax", "ymax"]
            for (name, column) in zip(["xmin", "ymin", "xmax", "ymax"], names) {
                let (actual, expected) = (answer?[name]?.numberValue, box[column]?.numberValue)
                #expect(actual != nil && expected != nil && abs((actual ?? 0) - (expected ?? 0)) < (wgs84 ? 1e-9 : 1e-3),
                        "\(target).\(name): \(String(describing: actual)) vs SQL \(String(describing: expected))")
            }
        }
        try await harness.stop()
    }
}
