import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

/// The OGC face's time-aware parcel sales collection, `sortby` (declared, undeclared-but-honoured and
/// ignored), `properties`, `skipGeometry` and `ids`.
@Suite("OGC datetime, sorting and property selection")
struct OGCSortingSelectionTests {
    static let sales = "LA_County_Parcel_Sales"

    @Test("the sales collection publishes its temporal interval; datetime filters it inclusively")
    func datetime() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            #expect(SampleFeatureServer.ogcCollectionID(.parcelSales) == Self.sales)
            let collection = try await client.ogc(server.ogcURL + "/collections/" + Self.sales)
            let interval = ((collection["extent"] as? [String: Any])?["temporal"] as? [String: Any])?["interval"] as? [[String]]
            #expect(interval == [["2015-01-01T00:00:00.000Z", "2024-12-31T23:59:59.000Z"]])
            let cities = try await client.ogc(server.ogcURL + "/collections/USA_Cities")
            #expect((cities["extent"] as? [String: Any])?["temporal"] == nil)
            let page = try await client.ogc(server.itemsURL(Self.sales), [
                ("datetime", "2021-03-14T09:59:59.999Z/2021-11-07T08:30:00Z"), ("DocType", "Vector 1-10"), ("limit", "100"),
            ])
            #expect(page.featureIDsOGC.sorted() == [2, 3, 4])
            let open = try await client.ogc(server.itemsURL(Self.sales), [("datetime", "../2019-06-15T12:00:00Z"), ("DocType", "Vector 1,3")])
            #expect(open.featureIDsOGC.sorted() == [11, 12])
            let anywhere = try await client.ogc(server.itemsURL("USA_Cities"), [("datetime", "2020-01-01T00:00:00Z"), ("limit", "1")])
            #expect(anywhere.numberMatched == server.dataset.featureCount(.cities))  // no temporal extent: every feature matches
            let strict = ["pygeoapi-datetime"]
            _ = try await client.ogc(server.itemsURL("USA_Cities", quirks: strict), [("datetime", "2020-01-01T00:00:00Z")], status: 400)
            _ = try await client.ogc(server.itemsURL(Self.sales, quirks: strict), [("datetime", "../2014-12-31T23:59:59Z")], status: 400)
            _ = try await client.ogc(server.itemsURL(Self.sales, quirks: strict), [("datetime", "2025-01-01T00:00:00Z/..")], status: 400)
            let inside = try await client.ogc(server.itemsURL(Self.sales, quirks: strict), [("datetime", "2014-01-01T00:00:00Z/2015-01-01T00:00:00Z")])
            #expect(inside.featureIDsOGC == [1])
        }
    }

    @Test("sortby declared: conformance class, sortables link and document; +/- keys honoured; unknown keys a 400")
    func sortingDeclared() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let classes = try await client.ogc(server.ogcURL + "/conformance")["conformsTo"] as? [String] ?? []
            #expect(classes.contains("http://www.opengis.net/spec/ogcapi-features-8/1.0/conf/sorting"))
            let collection = try await client.ogc(server.ogcURL + "/collections/USA_Cities")
            #expect(collection.linkHref("http://www.opengis.net/def/rel/ogc/1.0/sortables") != nil)
            let sortables = try await client.ogc(server.ogcURL + "/collections/USA_Cities/sortables")
            #expect((sortables["properties"] as? [String: Any])?["POP2000"] != nil)
            let page = try await client.ogc(server.itemsURL("USA_Cities"), [("sortby", "-POP2000,+OBJECTID"), ("limit", "200")])
            let values = page.features.compactMap { (($0["properties"] as? [String: Any])?["POP2000"] as? NSNumber)?.intValue }
            #expect(values.count == 200 && values == values.sorted(by: >))
            let next = try await client.get(OGCWalk.resolve(page.nextHref ?? "", against: server.itemsURL("USA_Cities")))
            let more = try next.jsonObject().features.compactMap { (($0["properties"] as? [String: Any])?["POP2000"] as? NSNumber)?.intValue }
            #expect((more.first ?? .max) <= (values.last ?? 0))
            let ascending = try await client.ogc(server.itemsURL("USA_Cities"), [("sortby", "POP2000"), ("limit", "50")])
            let up = ascending.features.compactMap { (($0["properties"] as? [String: Any])?["POP2000"] as? NSNumber)?.intValue }
            #expect(up == up.sorted())
            _ = try await client.ogc(server.itemsURL("USA_Cities"), [("sortby", "-Nope")], status: 400)
            let api = try await client.ogc(server.ogcURL + "/api")
            let parameters = (api["components"] as? [String: Any])?["parameters"] as? [String: Any]
            #expect(parameters?["sortby"] != nil && parameters?["properties"] != nil && parameters?["ids"] != nil)
            #expect((api["paths"] as? [String: Any])?["/collections/{collectionId}/sortables"] != nil)
        }
    }

    @Test("sortby undeclared: ignored (sortby-ignored) or honoured (sortby-undeclared); neither declares nor has sortables")
    func sortingUndeclared() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            for quirk in ["sortby-ignored", "sortby-undeclared"] {
                let base = server.ogcURL(quirks: [quirk])
                let classes = try await client.ogc(base + "/conformance")["conformsTo"] as? [String] ?? []
                #expect(!classes.contains { $0.contains("ogcapi-features-8") })
                _ = try await client.ogc(base + "/collections/USA_Cities/sortables", status: 404)
                let page = try await client.ogc(server.itemsURL("USA_Cities", quirks: [quirk]), [("sortby", "-POP2000"), ("limit", "100")])
                if quirk == "sortby-ignored" {
                    #expect(page.featureIDsOGC == Array(1...100))
                } else {
                    let values = page.features.compactMap { (($0["properties"] as? [String: Any])?["POP2000"] as? NSNumber)?.intValue }
                    #expect(values == values.sorted(by: >) && page.featureIDsOGC != Array(1...100))
                }
            }
        }
    }

    @Test("properties limits the properties, skipGeometry drops the geometry, ids picks features")
    func selection() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let page = try await client.ogc(server.itemsURL(Self.sales), [
                ("properties", "SalePrice,DocType"), ("skipGeometry", "true"), ("ids", "12,3,99999,3"), ("limit", "10"),
            ])
            #expect(page.featureIDsOGC == [3, 12])
            for feature in page.features {
                #expect(feature["geometry"] is NSNull)
                #expect(((feature["properties"] as? [String: Any])?.keys).map(Set.init) == ["SalePrice", "DocType"])
            }
            _ = try await client.ogc(server.itemsURL(Self.sales), [("properties", "Nope")], status: 400)
            _ = try await client.ogc(server.itemsURL(Self.sales), [("ids", "x")], status: 400)
            _ = try await client.ogc(server.itemsURL(Self.sales), [("skipGeometry", "maybe")], status: 400)
        }
    }
}
