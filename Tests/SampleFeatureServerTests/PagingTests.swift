import CurlHTTP
import FeatureGeometry
import Foundation
import SampleFeatureServer
import Testing

@Suite("Paging and exceededTransferLimit")
struct PagingTests {
    @Test("pages of resultRecordCount from resultOffset concatenate to the whole selection; the flag marks more")
    func pagination() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let parameters = [("where", "UseType = 'Residential'"), ("geometry", SampleDataset.seedExtent.queryText)]
            let all = try await client.query(server, .parcels, parameters + [("returnIdsOnly", "true"), ("f", "json")]).objectIDs
            #expect(all.count > 2_000)
            var collected: [Int] = []
            var offset = 0
            while true {
                let page = try await client.query(server, .parcels, parameters + [
                    ("resultOffset", String(offset)), ("resultRecordCount", "700"), ("orderByFields", "OBJECTID ASC"),
                    ("returnGeometry", "false"), ("f", "json"),
                ])
                collected += page.featureIDs
                offset += page.features.count
                #expect(page.exceededTransferLimit != nil)
                let more = page.exceededTransferLimit ?? false
                #expect(more == (collected.count < all.count))
                if !more { break }
                #expect(page.features.count == 700)
            }
            #expect(collected == all)
            // One page past the end: empty, and the flag says there is no more.
            let past = try await client.query(server, .parcels, parameters + [("resultOffset", String(all.count)), ("f", "json")])
            #expect(past.features.isEmpty && past.exceededTransferLimit == false)
        }
    }

    @Test("pages are capped at maxRecordCount; without paging the flag appears only when the cap cut the answer")
    func maxRecordCount() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let big = try await client.query(server, .parcels, [("where", "1=1"), ("resultRecordCount", "5000"), ("returnGeometry", "false"), ("f", "json")])
            #expect(big.features.count == 2000 && big.exceededTransferLimit == true)
            let plain = try await client.query(server, .parcels, [("where", "1=1"), ("returnGeometry", "false"), ("f", "json")])
            #expect(plain.features.count == 2000 && plain.exceededTransferLimit == true)
            let small = try await client.query(server, .states, [("where", "1=1"), ("returnGeometry", "false"), ("f", "json")])
            #expect(small.features.count == 49 && small.exceededTransferLimit == nil)
            let exact = try await client.query(server, .states, [("where", "1=1"), ("resultRecordCount", "49"), ("f", "json")])
            #expect(exact.features.count == 49 && exact.exceededTransferLimit == false)
            let counties = try await client.query(server, .counties, [("where", "1=1"), ("resultOffset", "1000"), ("f", "json")])
            #expect(counties.features.count == 1000 && counties.exceededTransferLimit == true)
        }
    }

    @Test("the legacy layer ignores resultOffset/resultRecordCount and orderByFields, but answers ids and objectIds")
    func legacyLayer() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let first = try await client.query(server, .legacyParcels, [("where", "1=1"), ("returnGeometry", "false"), ("f", "json")])
            #expect(first.features.count == 1000 && first.exceededTransferLimit == true)
            let offset = try await client.query(server, .legacyParcels, [
                ("where", "1=1"), ("resultOffset", "1000"), ("resultRecordCount", "10"), ("orderByFields", "OBJECTID DESC"),
                ("returnGeometry", "false"), ("f", "json"),
            ])
            #expect(offset.featureIDs == first.featureIDs)
            #expect(offset.exceededTransferLimit == true)
            let ids = try await client.query(server, .legacyParcels, [("where", "1=1"), ("returnIdsOnly", "true"), ("f", "json")]).objectIDs
            #expect(ids.count == server.dataset.featureCount(.legacyParcels))
            #expect(ids == server.dataset.objectIDs(.legacyParcels))
            let chunk = Array(ids[5_000..<5_200])
            let byIDs = try await client.post(server.queryURL(.legacyParcels), [
                ("objectIds", chunk.map(String.init).joined(separator: ",")), ("outFields", "*"), ("f", "json"),
            ])
            let features = try byIDs.jsonObject()
            #expect(features.featureIDs == chunk)
            #expect(features.exceededTransferLimit == nil)
            let geoJSON = try await client.query(server, .legacyParcels, [("where", "1=1"), ("f", "geojson")])
            #expect(geoJSON.errorCode == 400)
        }
    }

    /// Speed is the benchmark's business (run-sample-server-benchmark.sh); this checks the pages themselves.
    @Test("a where clause over the whole layer pages through (selections are cached between pages)")
    func cachedSelection() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            var pages = 0
            for offset in stride(from: 0, to: 40_000, by: 2_000) {
                let page = try await client.query(server, .parcels, [
                    ("where", "Roll_LandValue > 1000000"), ("resultOffset", String(offset)), ("returnGeometry", "false"),
                    ("outFields", "OBJECTID"), ("f", "json"),
                ])
                pages += page.features.isEmpty ? 0 : 1
            }
            #expect(pages == 20)
        }
    }
}
