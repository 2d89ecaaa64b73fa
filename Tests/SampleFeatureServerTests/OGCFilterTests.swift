import CurlHTTP
import FeatureGeometry
import Foundation
import SampleFeatureServer
import Testing

@Suite("OGC CQL2 filters")
struct OGCFilterTests {
    @Test("CQL2-JSON selects what the equivalent CQL2 text selects")
    func json() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let pairs = [
                (#"{"op":"and","args":[{"op":"=","args":[{"property":"ST"},"TX"]},{"op":">","args":[{"property":"POP2000"},20000]}]}"#,
                 "ST = 'TX' AND POP2000 > 20000"),
                (#"{"op":"in","args":[{"property":"ST"},["VT","NH","ME"]]}"#, "ST IN ('VT','NH','ME')"),
                (#"{"op":"like","args":[{"property":"CITY_NAME"},"Spring%"]}"#, "CITY_NAME LIKE 'Spring%'"),
            ]
            for (json, text) in pairs {
                let byJSON = try await client.ogc(server.itemsURL("USA_Cities"), [("filter", json), ("filter-lang", "cql2-json"), ("limit", "10000")])
                let truth = try server.dataset.groundTruthObjectIDs(.cities, where: text)
                #expect(!truth.isEmpty)
                #expect(byJSON.featureIDsOGC == truth, "\(json)")
            }
        }
    }

    @Test("TIMESTAMP comparisons select what the datetime parameter selects; FCSUBTYPE -999999 means none")
    func temporal() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let url = server.itemsURL("TransportationGroundCrv")
            let byDatetime = try await client.ogc(url, [("datetime", "2016-01-01T00:00:00Z/2017-12-31T23:59:59Z"), ("limit", "10000")])
            let byFilter = try await client.ogc(url, [
                ("filter", "ZI001_SDV >= TIMESTAMP('2016-01-01T00:00:00Z') AND ZI001_SDV <= TIMESTAMP('2017-12-31T23:59:59Z')"),
                ("limit", "10000"),
            ])
            #expect(byDatetime.featureIDsOGC.count > 300)
            #expect(byFilter.featureIDsOGC == byDatetime.featureIDsOGC)
            let none = try await client.ogc(url, [("FCSUBTYPE", "-999999"), ("limit", "1")])
            let some = try await client.ogc(url, [("filter", "FCSUBTYPE <> -999999"), ("limit", "1")])
            #expect((none.numberMatched ?? 0) + (some.numberMatched ?? 0) == 3_712)
            #expect((none.numberMatched ?? 0) > (some.numberMatched ?? 0))
        }
    }

    @Test("S_INTERSECTS with BBOX equals the bbox parameter; filter-crs EPSG:4326 reads lat/lon; with attributes it ANDs")
    func spatialBBox() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let byParameter = try await client.ogc(server.itemsURL("USA_Counties"), [("bbox", "-100.5,35.2,-92.25,41.7"), ("limit", "10000")])
            #expect(byParameter.featureIDsOGC.count > 20)
            let byText = try await client.ogc(server.itemsURL("USA_Counties"), [
                ("filter", "S_INTERSECTS(geometry, BBOX(-100.5,35.2,-92.25,41.7))"), ("limit", "10000"),
            ])
            #expect(byText.featureIDsOGC == byParameter.featureIDsOGC)
            let byJSON = try await client.ogc(server.itemsURL("USA_Counties"), [
                ("filter", #"{"op":"s_intersects","args":[{"property":"geometry"},{"bbox":[-100.5,35.2,-92.25,41.7]}]}"#),
                ("filter-lang", "cql2-json"), ("limit", "10000"),
            ])
            #expect(byJSON.featureIDsOGC == byParameter.featureIDsOGC)
            let latLon = try await client.ogc(server.itemsURL("USA_Counties"), [
                ("filter", "S_INTERSECTS(geometry, BBOX(35.2,-100.5,41.7,-92.25))"),
                ("filter-crs", "http://www.opengis.net/def/crs/EPSG/0/4326"), ("limit", "10000"),
            ])
            #expect(latLon.featureIDsOGC == byParameter.featureIDsOGC)
            let box = Envelope(xmin: -100.5, ymin: 35.2, xmax: -92.25, ymax: 41.7, spatialReference: .wgs84)
            let combined = try await client.ogc(server.itemsURL("USA_Counties"), [
                ("filter", "POP2000 > 50000 AND S_INTERSECTS(geometry, BBOX(-100.5,35.2,-92.25,41.7))"), ("limit", "10000"),
            ])
            let truth = try server.dataset.groundTruthObjectIDs(.counties, where: "POP2000 > 50000", envelope: box)
            #expect(!truth.isEmpty && combined.featureIDsOGC == truth)
        }
    }

    @Test("S_INTERSECTS with a polygon selects the points inside it, on the parcels too (stored in Web Mercator)")
    func spatialPolygon() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            // A triangle over the middle of the country.
            let triangle = [(-105.0, 32.0), (-90.0, 32.0), (-97.5, 44.0)]
            let wkt = "POLYGON((" + (triangle + [triangle[0]]).map { "\($0.0) \($0.1)" }.joined(separator: ",") + "))"
            let page = try await client.ogc(server.itemsURL("USA_Cities"), [("filter", "S_INTERSECTS(geometry, \(wkt))"), ("limit", "10000")])
            let everything = try await client.ogc(server.itemsURL("USA_Cities"), [("limit", "10000")])
            func inside(_ x: Double, _ y: Double) -> Bool {
                func side(_ a: (Double, Double), _ b: (Double, Double)) -> Double { (b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0) }
                let s = [side(triangle[0], triangle[1]), side(triangle[1], triangle[2]), side(triangle[2], triangle[0])]
                return s.allSatisfy { $0 > 0 } || s.allSatisfy { $0 < 0 }
            }
            let truth = everything.features.filter { feature in
                guard let c = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] else { return false }
                return inside(c[0], c[1])
            }.compactMap { ($0["id"] as? NSNumber)?.intValue }
            #expect(truth.count > 50)
            #expect(page.featureIDsOGC == truth)

            let extent = try SampleDataset.seedExtent.projected(to: .wgs84)
            let ring = [(extent.xmin, extent.ymin), (extent.xmax, extent.ymin), (extent.xmax, extent.ymax), (extent.xmin, extent.ymax), (extent.xmin, extent.ymin)]
            let parcels = try await OGCWalk.walk(client, server.itemsURL("LA_County_Parcels") + "?limit=10000&filter="
                + OGCLinksForTests.encode("S_INTERSECTS(geometry,POLYGON((" + ring.map { "\($0.0) \($0.1)" }.joined(separator: ",") + ")))"))
            let byBBox = try await OGCWalk.walk(client, server.itemsURL("LA_County_Parcels")
                + "?limit=10000&bbox=\(extent.xmin),\(extent.ymin),\(extent.xmax),\(extent.ymax)")
            #expect(byBBox.ids.count > 1_000)
            #expect(parcels.ids == byBBox.ids)
        }
    }

    @Test("filters needing classes the API does not declare, or not CQL2, are 400 with a description")
    func refused() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            for (filter, language) in [
                ("S_WITHIN(geometry, BBOX(0,0,1,1))", "cql2-text"), ("POP2000 + 1 > 5", "cql2-text"),
                ("S_INTERSECTS(shape, BBOX(0,0,1,1))", "cql2-text"), (#"{"op":"=","args":[{"property":"ST"}]"#, "cql2-json"),
                ("ST = 'CA'", "cql2-json"), ("T_AFTER(x, TIMESTAMP('2020-01-01T00:00:00Z'))", "cql2-text"),
            ] {
                let body = try await client.ogc(server.itemsURL("USA_Cities"), [("filter", filter), ("filter-lang", language)], status: 400)
                #expect(body["code"] as? String == "InvalidParameterValue", "\(filter)")
                #expect((body["description"] as? String)?.contains("filter") == true, "\(filter)")
            }
        }
    }
}

/// Percent-encoding of a query value, as a client would send it.
enum OGCLinksForTests {
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
