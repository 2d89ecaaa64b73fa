import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

@Suite("OGC discovery")
struct OGCDiscoveryTests {
    @Test("the landing page links the API definition, conformance and collections; the API declares limit's maximum")
    func landing() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let landing = try await client.ogc(server.ogcURL)
            #expect(landing.linkHref("self") == server.ogcURL)
            #expect(landing.linkHref("conformance") == server.ogcURL + "/conformance")
            #expect(landing.linkHref("data") == server.ogcURL + "/collections")
            let api = try await client.ogc(try #require(landing.linkHref("service-desc")))
            let parameters = (api["components"] as? [String: Any])?["parameters"] as? [String: Any]
            let limit = (parameters?["limit"] as? [String: Any])?["schema"] as? [String: Any]
            #expect((limit?["maximum"] as? NSNumber)?.intValue == 10_000)
            #expect((limit?["default"] as? NSNumber)?.intValue == 10)
            let quirky = try await client.ogc(server.ogcURL(quirks: ["max-limit-7"]) + "/api")
            let quirkyLimit = ((quirky["components"] as? [String: Any])?["parameters"] as? [String: Any])?["limit"] as? [String: Any]
            #expect(((quirkyLimit?["schema"] as? [String: Any])?["maximum"] as? NSNumber)?.intValue == 7)
        }
    }

    @Test("conformance declares Parts 1-3 and the CQL2 classes the face supports")
    func conformance() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let classes = try await client.ogc(server.ogcURL + "/conformance")["conformsTo"] as? [String] ?? []
            for suffix in ["ogcapi-features-1/1.0/conf/core", "ogcapi-features-1/1.0/conf/geojson", "ogcapi-features-1/1.0/conf/oas30",
                           "ogcapi-features-2/1.0/conf/crs", "ogcapi-features-3/1.0/conf/queryables",
                           "ogcapi-features-3/1.0/conf/queryables-query-parameters", "ogcapi-features-3/1.0/conf/filter",
                           "ogcapi-features-3/1.0/conf/features-filter", "cql2/1.0/conf/cql2-text", "cql2/1.0/conf/basic-cql2",
                           "cql2/1.0/conf/advanced-comparison-operators", "cql2/1.0/conf/case-insensitive-comparison"] {
                #expect(classes.contains("http://www.opengis.net/spec/" + suffix), "missing \(suffix)")
            }
        }
    }

    @Test("collections: the ArcGIS layers and the Daraa look-alike, with extents, #/crs, storageCrs and links")
    func collections() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let document = try await client.ogc(server.ogcURL + "/collections")
            let crs = document["crs"] as? [String] ?? []
            #expect(crs == ["http://www.opengis.net/def/crs/OGC/1.3/CRS84", "http://www.opengis.net/def/crs/EPSG/0/4326",
                            "http://www.opengis.net/def/crs/EPSG/0/3857"])
            let collections = document["collections"] as? [[String: Any]] ?? []
            let ids = collections.compactMap { $0["id"] as? String }
            #expect(ids.prefix(5) == ["LA_County_Parcels", "USA_Cities", "USA_Highways", "USA_States", "USA_Counties"])
            #expect(Set(ids).isSuperset(of: DaraaCollection.allCases.map(\.id)))
            for collection in collections {
                #expect(collection["itemType"] as? String == "feature")
                #expect(collection["crs"] as? [String] == ["#/crs"])
                let bbox = ((collection["extent"] as? [String: Any])?["spatial"] as? [String: Any])?["bbox"] as? [[Double]]
                #expect(bbox?.first?.count == 4)
                #expect(collection.linkHref("items")?.hasSuffix("/items") == true)
            }
            let daraa = try #require(collections.first { $0["id"] as? String == "TransportationGroundCrv" })
            let box = try #require((((daraa["extent"] as? [String: Any])?["spatial"] as? [String: Any])?["bbox"] as? [[Double]])?.first)
            #expect(box[0] >= 35.90 && box[1] >= 32.42 && box[2] <= 36.57 && box[3] <= 33.14)
            let interval = ((daraa["extent"] as? [String: Any])?["temporal"] as? [String: Any])?["interval"] as? [[String]]
            #expect(interval?.first?.first?.hasPrefix("2014-01-01") == true)

            let parcels = try await client.ogc(server.ogcURL + "/collections/LA_County_Parcels")
            #expect(parcels["storageCrs"] as? String == "http://www.opengis.net/def/crs/EPSG/0/3857")
            #expect((parcels["crs"] as? [String])?.count == 3)
            let cities = try await client.ogc(server.ogcURL + "/collections/USA_Cities")
            #expect(cities["storageCrs"] as? String == "http://www.opengis.net/def/crs/OGC/1.3/CRS84")
        }
    }

    @Test("queryables are JSON Schema with the fields' types and no other properties")
    func queryables() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let response = try await client.get(server.ogcURL + "/collections/TransportationGroundCrv/queryables")
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/schema+json")
            let schema = try response.jsonObject()
            let properties = schema["properties"] as? [String: Any] ?? [:]
            #expect(Set(properties.keys) == ["OBJECTID", "F_CODE", "ZI005_FNA", "ZI001_SDV", "UFI", "FCSUBTYPE", "ZI006_MEM", "geometry"])
            #expect((properties["ZI001_SDV"] as? [String: Any])?["format"] as? String == "date-time")
            #expect((properties["FCSUBTYPE"] as? [String: Any])?["type"] as? String == "integer")
            #expect((schema["additionalProperties"] as? NSNumber)?.boolValue == false)
        }
    }

    @Test("the Daraa look-alike: counts, TDS fields and values, deterministic")
    func daraa() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let total = DaraaCollection.allCases.reduce(0) { $0 + server.dataset.featureCount($1) }
            #expect(total > 5_000 && total < 10_000)
            let page = try await client.ogc(server.itemsURL("TransportationGroundCrv"), [("limit", "200")])
            #expect(page.numberMatched == 3_712)
            let features = page.features
            #expect(features.count == 200)
            let properties = features.compactMap { $0["properties"] as? [String: Any] }
            #expect(properties.filter { $0["ZI005_FNA"] as? String == "No Information" }.count > 100)
            #expect(properties.filter { ($0["FCSUBTYPE"] as? NSNumber)?.intValue == -999_999 }.count > 100)
            #expect(properties.allSatisfy { ($0["UFI"] as? String)?.count == 36 })
            #expect(features.allSatisfy { ($0["geometry"] as? [String: Any])?["type"] as? String == "LineString" })
            let again = try SampleDataset(parcelCount: 10, seed: 1)
            let other = try await TestSupport.withServer(dataset: again) { (server2, client2) async throws in
                try await client2.ogc(server2.itemsURL("TransportationGroundCrv"), [("limit", "200")])
            }
            #expect((other.features.first?["properties"] as? [String: Any])?["UFI"] as? String
                == (properties.first?["UFI"] as? String))
        }
    }
}
