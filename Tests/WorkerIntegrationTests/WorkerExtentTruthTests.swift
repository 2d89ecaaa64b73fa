import FeatureQuerySupport
import PygeoapiFixture
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// Extents through Kafka against PostGIS's `ST_Extent` over the same features: sale points and parcel
/// polygons, with `supportsReturningQueryExtent` on (the service's `returnExtentOnly`) and off (the worker's).
@Suite("Worker extents against SQL", .enabled(if: PygeoapiSampleService.isAvailable))
struct WorkerExtentTruthTests {
    /// A selection, in ArcGIS SQL and PostgreSQL, of a layer and its table.
    struct Selection {
        var layer: SampleLayer
        var table: String
        var arcgis: String
        var sql: String
    }

    static let deeds = Selection(
        layer: .parcelSales, table: PygeoapiSalesService.table, arcgis: "DocType = 'Sheriff Deed'", sql: #""DocType" = 'Sheriff Deed'"#)
    /// Commercial parcels among those loaded (OBJECTIDs 1…3,000).
    static let commercial = Selection(
        layer: .parcels, table: "parcels", arcgis: "OBJECTID <= \(PygeoapiSalesService.parcelCount) AND UseType = 'Commercial'",
        sql: #""OBJECTID" <= \#(PygeoapiSalesService.parcelCount) AND "UseType" = 'Commercial'"#)

    @Test func extentsByServiceAndWorkerAgreeWithSQL() async throws {
        let harness = try await WorkerHarness()
        let truth = try await SalesTruth.shared(for: harness)
        let limited = try await FeatureTableRequests.variantServer(harness.dataset, options: ["supportsReturningQueryExtent=false"])
        var cases: [(id: String, selection: Selection, server: SampleFeatureServer)] = []
        for (name, selection) in [("sales", Self.deeds), ("parcels", Self.commercial)] {
            for (site, server) in [("server", harness.server), ("worker", limited)] {
                let id = "\(name)-\(site)"
                try await harness.send(id, WorkerHarness.request(
                    id, url: server.layerURL(selection.layer), query: #"{"where":"\#(selection.arcgis)","result":"extent"}"#))
                cases.append((id, selection, server))
            }
        }
        let outcomes = try await harness.outcomesByRequest(cases.count).compactMapValues(\.first)

        for (id, selection, server) in cases {
            let box = try #require(try await truth.rows("""
                SELECT ST_XMin(e) AS xmin, ST_YMin(e) AS ymin, ST_XMax(e) AS xmax, ST_YMax(e) AS ymax, n FROM (
                    SELECT ST_Extent(ST_Transform(geom, 3857)) AS e, count(*) AS n FROM \(selection.table) WHERE \(selection.sql)) t
                """).first)
            try #require((box["n"]?.numberValue ?? 0) > 10, "\(id): a selection of some features")
            let outcome = outcomes[id]
            #expect(outcome?.status == "succeeded", "\(id): \(String(describing: outcome))")
            let layer = outcome?.firstLayer
            let asked = server.statistics.recentQueries(selection.layer).filter { $0.parameter("returnExtentOnly") == "true" }
            #expect(asked.isEmpty == (server !== harness.server), "\(id): returnExtentOnly only where supported")
            #expect(layer?.integer("count") == box["n"]?.numberValue.flatMap { Int(exactly: $0) }, "\(id)")
            let answer = layer?["extent"]
            for name in ["xmin", "ymin", "xmax", "ymax"] {
                // Web Mercator metres through WGS 84 GeoJSON and back: a millimetre covers the round trip.
                let (actual, expected) = (answer?[name]?.numberValue, box[name]?.numberValue)
                #expect(actual != nil && expected != nil && abs((actual ?? 0) - (expected ?? 0)) < 1e-3,
                        "\(id).\(name): \(String(describing: actual)) vs SQL \(String(describing: expected))")
            }
            let wkid = answer?["spatialReference"]?.integer("wkid")
            #expect(wkid == 3857 || wkid == 102100, "\(id): Web Mercator, the layer's")
        }

        await limited.shutdown()
        try await harness.stop()
    }
}
