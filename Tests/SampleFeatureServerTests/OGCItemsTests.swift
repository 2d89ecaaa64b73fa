import CurlHTTP
import FeatureGeometry
import Foundation
import QueryLanguage
import SampleFeatureServer
import Testing

@Suite("OGC items")
struct OGCItemsTests {
    @Test("paging by next walks a whole collection exactly once, ids as OBJECTID integers")
    func walkAll() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let walk = try await OGCWalk.walk(client, server.itemsURL("USA_Counties") + "?limit=700")
            #expect(!walk.cycled)
            #expect(walk.ids == server.dataset.objectIDs(.counties))
            #expect(walk.pages.allSatisfy { $0.numberMatched == walk.ids.count })
            #expect(walk.pages.last?.nextHref == nil)
            #expect(walk.urls[1].contains("offset=700"))
        }
    }

    @Test("items answer geo+json with Content-Crs; a limit above the maximum is clamped; default 10")
    func headersAndLimit() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let response = try await client.get(server.itemsURL("LA_County_Parcels") + "?limit=20000")
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/geo+json")
            #expect(response.headers["Content-Crs"] == "<http://www.opengis.net/def/crs/OGC/1.3/CRS84>")
            let page = try response.jsonObject()
            #expect(page.numberReturned == 10_000 && page.features.count == 10_000)
            #expect(page.numberMatched == TestSupport.parcelCount)
            #expect(page.featureIDsOGC == Array(1...10_000))
            let small = try await client.ogc(server.itemsURL("USA_States"))
            #expect(small.numberReturned == 10)
        }
    }

    @Test("bbox in CRS84 selects what the ground truth says, for polygons, lines and points")
    func bbox() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let box = Envelope(xmin: -100.5, ymin: 35.2, xmax: -92.25, ymax: 41.7, spatialReference: .wgs84)
            for (layer, collection) in [(SampleLayer.counties, "USA_Counties"), (.highways, "USA_Highways"), (.cities, "USA_Cities")] {
                let walk = try await OGCWalk.walk(client, server.itemsURL(collection) + "?limit=10000&bbox=-100.5,35.2,-92.25,41.7")
                let truth = try server.dataset.groundTruthObjectIDs(layer, envelope: box)
                #expect(truth.count > 5)
                #expect(walk.ids == truth, "\(collection)")
            }
        }
    }

    @Test("a bbox crossing the antimeridian selects both sides, not the complement")
    func antimeridian() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            // West edge -100 east of east edge -120: the box runs from -100 east across 180 to -120.
            let page = try await client.ogc(server.itemsURL("USA_Counties"), [("bbox", "-100,30,-120,40"), ("limit", "10000")])
            let east = try server.dataset.groundTruthObjectIDs(.counties, envelope: Envelope(xmin: -100, ymin: 30, xmax: 180, ymax: 40, spatialReference: .wgs84))
            let west = try server.dataset.groundTruthObjectIDs(.counties, envelope: Envelope(xmin: -180, ymin: 30, xmax: -120, ymax: 40, spatialReference: .wgs84))
            let truth = Array(Set(east + west)).sorted()
            #expect(truth.count > 10 && !west.isEmpty)
            #expect(page.featureIDsOGC == truth)
            let middle = try server.dataset.groundTruthObjectIDs(.counties, envelope: Envelope(xmin: -119, ymin: 31, xmax: -101, ymax: 39, spatialReference: .wgs84))
            #expect(Set(page.featureIDsOGC).isDisjoint(with: middle))
        }
    }

    @Test("bbox-crs EPSG:4326 is lat/lon; crs EPSG:4326 answers lat/lon with its Content-Crs; EPSG:3857 in metres")
    func axisOrder() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let lonLat = try await client.ogc(server.itemsURL("USA_Cities"), [("bbox", "-100,30,-90,40"), ("limit", "10000")])
            let latLon = try await client.ogc(server.itemsURL("USA_Cities"), [
                ("bbox", "30,-100,40,-90"), ("bbox-crs", "http://www.opengis.net/def/crs/EPSG/0/4326"), ("limit", "10000"),
            ])
            #expect(!lonLat.featureIDsOGC.isEmpty && lonLat.featureIDsOGC == latLon.featureIDsOGC)
            let crossing = try await client.ogc(server.itemsURL("USA_Cities"), [("bbox", "-100,30,-120,40"), ("limit", "10000")])
            let crossingLatLon = try await client.ogc(server.itemsURL("USA_Cities"), [
                ("bbox", "30,-100,40,-120"), ("bbox-crs", "EPSG:4326"), ("limit", "10000"),
            ])
            #expect(crossing.featureIDsOGC.count > lonLat.featureIDsOGC.count)
            #expect(crossingLatLon.featureIDsOGC == crossing.featureIDsOGC)
            let mercator = try Envelope(xmin: -100, ymin: 30, xmax: -90, ymax: 40, spatialReference: .wgs84).projected(to: .webMercator)
            let inMetres = try await client.ogc(server.itemsURL("USA_Cities"), [
                ("bbox", "\(mercator.xmin),\(mercator.ymin),\(mercator.xmax),\(mercator.ymax)"),
                ("bbox-crs", "http://www.opengis.net/def/crs/EPSG/0/3857"), ("limit", "10000"),
            ])
            #expect(inMetres.featureIDsOGC == lonLat.featureIDsOGC)

            let plain = try await client.ogc(server.itemsURL("USA_Cities") + "/1")
            let response = try await client.get(server.itemsURL("USA_Cities") + "/1?crs=http://www.opengis.net/def/crs/EPSG/0/4326")
            #expect(response.headers["Content-Crs"] == "<http://www.opengis.net/def/crs/EPSG/0/4326>")
            let swapped = try response.jsonObject()
            let a = try #require((plain["geometry"] as? [String: Any])?["coordinates"] as? [Double])
            let b = try #require((swapped["geometry"] as? [String: Any])?["coordinates"] as? [Double])
            #expect(a[0] < -60 && a[1] > 20)
            #expect(b == [a[1], a[0]])
            let metres = try await client.ogc(server.itemsURL("USA_Cities") + "/1", [("crs", "EPSG:3857")])
            let c = try #require((metres["geometry"] as? [String: Any])?["coordinates"] as? [Double])
            let expected = WebMercator.project(longitude: a[0], latitude: a[1])
            #expect(abs(c[0] - expected.x) < 0.01 && abs(c[1] - expected.y) < 0.01)
        }
    }

    @Test("datetime and property=value select as the equivalent where clause does")
    func datetimeAndProperties() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let byState = try await client.ogc(server.itemsURL("USA_Cities"), [("ST", "CA"), ("limit", "10000")])
            #expect(byState.featureIDsOGC == (try server.dataset.groundTruthObjectIDs(.cities, where: "ST = 'CA'")))
            let walk = try await OGCWalk.walk(client, server.itemsURL("TransportationGroundCrv")
                + "?limit=10000&datetime=2016-01-01T00:00:00Z/2017-12-31T23:59:59Z")
            let all = try await client.ogc(server.itemsURL("TransportationGroundCrv"), [("limit", "10000")])
            let inRange = all.features.filter { feature in
                guard let text = (feature["properties"] as? [String: Any])?["ZI001_SDV"] as? String else { return false }
                return text >= "2016-01-01T00:00:00" && text <= "2017-12-31T23:59:59.999"
            }.compactMap { ($0["id"] as? NSNumber)?.intValue }
            #expect(inRange.count > 300)
            #expect(walk.ids == inRange)
            let open = try await client.ogc(server.itemsURL("TransportationGroundCrv"), [("datetime", "../2016-01-01T00:00:00Z"), ("limit", "1")])
            #expect((open.numberMatched ?? 0) > 500 && (open.numberMatched ?? 0) < 3_712)
        }
    }

    @Test("CQL2 text filters select the ground truth and AND with bbox")
    func cql2Text() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let filters = [
                ("\"ST\" = 'TX' AND \"POP2000\" > 20000", "ST = 'TX' AND POP2000 > 20000"),
                ("CITY_NAME LIKE 'Spring%' OR ST IN ('VT','NH')", "CITY_NAME LIKE 'Spring%' OR ST IN ('VT','NH')"),
                ("POP2000 BETWEEN 5000 AND 6000", "POP2000 BETWEEN 5000 AND 6000"),
                ("CASEI(ST) = CASEI('ny')", "UPPER(ST) = 'NY'"),
            ]
            for (filter, clause) in filters {
                let page = try await client.ogc(server.itemsURL("USA_Cities"), [("filter", filter), ("filter-lang", "cql2-text"), ("limit", "10000")])
                let truth = try server.dataset.groundTruthObjectIDs(.cities, where: clause)
                #expect(!truth.isEmpty)
                #expect(page.featureIDsOGC == truth, "\(filter)")
            }
            let box = Envelope(xmin: -100, ymin: 30, xmax: -90, ymax: 40, spatialReference: .wgs84)
            let both = try await client.ogc(server.itemsURL("USA_Cities"), [("filter", "POP2000 > 10000"), ("bbox", "-100,30,-90,40"), ("limit", "10000")])
            #expect(both.featureIDsOGC == (try server.dataset.groundTruthObjectIDs(.cities, where: "POP2000 > 10000", envelope: box)))
        }
    }

    @Test("the seven seed clauses select the same parcels on the ArcGIS face and, as CQL2 text and JSON, on the OGC face",
          arguments: NamedQueryCatalog.builtInExamples.map(\.clause), ["cql2-text", "cql2-json"])
    func seedClauseParity(_ clause: String, _ language: String) async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let extent = try SampleDataset.seedExtent.projected(to: .wgs84)
            let arcgis = try await client.query(server, .parcels, [
                ("where", clause), ("geometry", extent.queryText), ("inSR", "4326"), ("returnIdsOnly", "true"), ("f", "json"),
            ]).objectIDs
            let cql2 = language == "cql2-text" ? try WhereClause(clause).cql2Text() : try WhereClause(clause).cql2JSON()
            let bbox = "\(extent.xmin),\(extent.ymin),\(extent.xmax),\(extent.ymax)"
            var query = URLComponents()
            query.queryItems = [
                URLQueryItem(name: "filter", value: cql2), URLQueryItem(name: "filter-lang", value: language),
                URLQueryItem(name: "bbox", value: bbox), URLQueryItem(name: "limit", value: "1000"),
            ]
            let walk = try await OGCWalk.walk(client, server.itemsURL("LA_County_Parcels") + "?" + (query.percentEncodedQuery ?? ""))
            #expect(arcgis.count > 50)
            #expect(Set(walk.ids) == Set(arcgis))
            #expect(walk.ids.count == arcgis.count)
            #expect(walk.pages.first?.numberMatched == arcgis.count)
        }
    }

    @Test("bad parameters are 400 and unknown resources 404, with code and description")
    func errors() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let cases: [[(String, String)]] = [
                [("limit", "0")], [("limit", "ten")], [("offset", "-1")], [("bbox", "1,2,3")], [("bbox", "0,10,1,5")],
                [("crs", "EPSG:32633")], [("bbox", "0,0,1,1"), ("bbox-crs", "EPSG:2056")], [("filter", "ST = ")],
                [("filter", "NOPE = 1")], [("filter", "ST = 'CA'"), ("filter-lang", "cql-text")], [("colour", "red")],
                [("POP2000", "many")], [("datetime", "yesterday")], [("cursor", "forged")],
            ]
            for parameters in cases {
                let body = try await client.ogc(server.itemsURL("USA_Cities"), parameters, status: 400)
                #expect(body["code"] as? String == "InvalidParameterValue", "\(parameters)")
                #expect((body["description"] as? String)?.isEmpty == false)
            }
            for url in [server.itemsURL("Nowhere"), server.ogcURL + "/collections/Nowhere", server.itemsURL("USA_Cities") + "/999999",
                        server.itemsURL("USA_Cities") + "/abc", server.ogcURL + "/elsewhere", server.ogcURL(quirks: ["no-such-quirk"])] {
                let body = try await client.ogc(url, status: 404)
                #expect(body["code"] as? String == "NotFound", "\(url)")
            }
        }
    }
}
