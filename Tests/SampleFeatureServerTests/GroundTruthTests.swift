import CurlHTTP
import FeatureGeometry
import Foundation
import SampleFeatureServer
import Testing

@Suite("Ground truth")
struct GroundTruthTests {
    static let seedClauses = [
        "UseType = 'Government'", "UseType = 'Residential'", "UseType = 'Irrigated Farm'", "TaxRateArea = 10853",
        "TaxRateArea = 10860", "Roll_LandValue > 1000000", "Roll_LandValue < 1000000",
    ]

    @Test("the seed's seven clauses over the seed extent: ids, counts and paged features equal the brute-force truth",
          arguments: seedClauses)
    func seedClause(_ clause: String) async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let extent = SampleDataset.seedExtent
            let truth = try server.dataset.groundTruthObjectIDs(.parcels, where: clause, envelope: extent)
            #expect(truth.count > 50)
            let parameters = [("where", clause), ("geometry", extent.queryText), ("geometryType", "esriGeometryEnvelope"),
                              ("inSR", "102100"), ("spatialRel", "esriSpatialRelIntersects")]
            let ids = try await client.query(server, .parcels, parameters + [("returnIdsOnly", "true"), ("f", "json")])
            #expect(ids.objectIDs == truth)
            let count = try await client.query(server, .parcels, parameters + [("returnCountOnly", "true"), ("f", "json")])
            #expect(count.countResult == truth.count)
            var paged: [Int] = []
            repeat {
                let page = try await client.post(server.queryURL(.parcels), parameters + [
                    ("resultOffset", String(paged.count)), ("resultRecordCount", "2000"), ("orderByFields", "OBJECTID"),
                    ("outFields", "OBJECTID,UseType,TaxRateArea,Roll_LandValue"), ("f", "json"),
                ]).jsonObject()
                paged += page.featureIDs
                if page.exceededTransferLimit != true { break }
            } while paged.count < truth.count + 1
            #expect(paged == truth)
        }
    }

    @Test("the seed extent sent in WGS 84 selects the same parcels")
    func geographicExtent() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let geographic = try SampleDataset.seedExtent.projected(to: .wgs84)
            let ids = try await client.query(server, .parcels, [
                ("where", "TaxRateArea = 10860"), ("geometry", geographic.queryText), ("inSR", "4326"), ("returnIdsOnly", "true"), ("f", "json"),
            ]).objectIDs
            #expect(ids == (try server.dataset.groundTruthObjectIDs(.parcels, where: "TaxRateArea = 10860", envelope: geographic)))
        }
    }

    @Test("many small extents agree with the truth, geometry included")
    func smallExtents() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let center = SampleDataset.viewpointWebMercator.position
            for step in 0..<12 {
                let offset = Double(step) * 277.3
                let box = Envelope.around(Position(x: center.x - 1_500 + offset, y: center.y + 900 - offset / 2), width: 231.7, height: 187.9)
                let answer = try await client.query(server, .parcels, [("geometry", box.queryText), ("outFields", "*"), ("f", "json")])
                let truth = try server.dataset.groundTruthObjectIDs(.parcels, envelope: box)
                #expect(answer.featureIDs == truth)
                for feature in answer.features {
                    let rings = (feature["geometry"] as? [String: Any])?["rings"] as? [[[Double]]] ?? []
                    let ring = rings.first ?? []
                    #expect(rings.count == 1 && (ring.count == 5 || ring.count == 6) && ring.first == ring.last)
                }
            }
        }
    }
}
