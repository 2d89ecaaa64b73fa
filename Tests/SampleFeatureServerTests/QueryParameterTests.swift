import CurlHTTP
import FeatureGeometry
import Foundation
import SampleFeatureServer
import Testing

@Suite("Query parameters")
struct QueryParameterTests {
    static let viewpoint = SampleDataset.viewpointWebMercator.position
    /// About 400 m × 300 m at the viewpoint: a few dozen parcels.
    static let small = Envelope.around(viewpoint, width: 400, height: 300)

    @Test("where, geometry and objectIds select what the data holds")
    func selection() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let dataset = server.dataset
            let ids = try await client.query(server, .parcels, [
                ("where", "UseType = 'Government'"), ("geometry", SampleDataset.seedExtent.queryText),
                ("returnIdsOnly", "true"), ("f", "json"),
            ])
            let expected = try dataset.groundTruthObjectIDs(.parcels, where: "UseType = 'Government'", envelope: SampleDataset.seedExtent)
            #expect(ids.objectIDs == expected)
            #expect(ids["objectIdFieldName"] as? String == "OBJECTID")
            let some = try await client.query(server, .parcels, [("objectIds", "5, 3,99999999,3,0,-9223372036854775808"), ("outFields", "*"), ("f", "json")])
            #expect(some.featureIDs == [3, 5])
            let both = try await client.query(server, .parcels, [
                ("objectIds", expected.prefix(3).map(String.init).joined(separator: ",") + ",1"),
                ("geometry", SampleDataset.seedExtent.queryText), ("returnIdsOnly", "true"), ("f", "json"),
            ])
            #expect(both.objectIDs == Array(expected.prefix(3)))
        }
    }

    @Test("envelopes as text or Esri JSON, polygons and points, inSR 4326")
    func geometryForms() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let box = Self.small
            func ids(_ parameters: [(String, String)]) async throws -> [Int] {
                try await client.query(server, .parcels, parameters + [("returnIdsOnly", "true"), ("f", "json")]).objectIDs
            }
            let byText = try await ids([("geometry", box.queryText)])
            #expect(byText.count > 10 && byText.count < 200)
            #expect(byText == (try server.dataset.groundTruthObjectIDs(.parcels, envelope: box)))
            let json = "{\"xmin\":\(box.xmin),\"ymin\":\(box.ymin),\"xmax\":\(box.xmax),\"ymax\":\(box.ymax),\"spatialReference\":{\"wkid\":102100}}"
            #expect(try await ids([("geometry", json), ("geometryType", "esriGeometryEnvelope")]) == byText)
            let ring = "[[\(box.xmin),\(box.ymin)],[\(box.xmin),\(box.ymax)],[\(box.xmax),\(box.ymax)],[\(box.xmax),\(box.ymin)],[\(box.xmin),\(box.ymin)]]"
            #expect(try await ids([("geometry", "{\"rings\":[\(ring)]}"), ("geometryType", "esriGeometryPolygon")]) == byText)
            let geographic = try box.projected(to: .wgs84)
            #expect(try await ids([("geometry", geographic.queryText), ("inSR", "4326")]) == byText)
            // A point inside one parcel finds that parcel alone.
            let first = try await client.query(server, .parcels, [("objectIds", String(byText[0])), ("returnExtentOnly", "true"), ("f", "json")])
            let extent = first["extent"] as? [String: Any] ?? [:]
            let corner = ((extent["xmin"] as? NSNumber)?.doubleValue ?? 0, (extent["ymin"] as? NSNumber)?.doubleValue ?? 0)
            let far = ((extent["xmax"] as? NSNumber)?.doubleValue ?? 0, (extent["ymax"] as? NSNumber)?.doubleValue ?? 0)
            let center = "\((corner.0 * 3 + far.0) / 4),\((corner.1 + far.1) / 2)"
            #expect(try await ids([("geometry", center), ("geometryType", "esriGeometryPoint")]) == [byText[0]])
        }
    }

    @Test("spatialRel: contains and within are narrower than intersects, envelope and index intersects wider")
    func spatialRelations() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            func ids(_ relation: String, _ box: Envelope = Self.small) async throws -> [Int] {
                try await client.query(server, .parcels, [
                    ("geometry", box.queryText), ("spatialRel", relation), ("returnIdsOnly", "true"), ("f", "json"),
                ]).objectIDs
            }
            let intersects = try await ids("esriSpatialRelIntersects")
            let contains = try await ids("esriSpatialRelContains")
            let envelope = try await ids("esriSpatialRelEnvelopeIntersects")
            #expect(!contains.isEmpty && contains.count < intersects.count)
            #expect(Set(contains).isSubset(of: intersects))
            #expect(Set(intersects).isSubset(of: envelope))
            #expect(try await ids("esriSpatialRelIndexIntersects") == envelope)
            // A 1 m box inside a parcel lies within that parcel only.
            let tiny = Envelope.around(Self.viewpoint, width: 1, height: 1)
            let within = try await ids("esriSpatialRelWithin", tiny)
            #expect(within.count == 1)
            #expect(try await ids("esriSpatialRelIntersects", tiny) == within)
            let unsupported = try await client.query(server, .parcels, [("geometry", tiny.queryText), ("spatialRel", "esriSpatialRelTouches"), ("f", "json")])
            #expect(unsupported.errorCode == 400)
        }
    }

    @Test("outFields, returnGeometry and outSR shape the features")
    func featureShape() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let box = Self.small.queryText
            let listed = try await client.query(server, .parcels, [("geometry", box), ("outFields", "apn, UseType"), ("f", "json")])
            #expect(Set(listed.features.first?.attributes.keys.map { $0 } ?? []) == ["APN", "UseType"])
            #expect((listed["fields"] as? [[String: Any]])?.map { $0["name"] as? String ?? "" } == ["APN", "UseType"])
            let all = try await client.query(server, .parcels, [("geometry", box), ("outFields", "*"), ("returnGeometry", "false"), ("f", "json")])
            #expect(all.features.first?.attributes.count == server.dataset.fieldNames(.parcels).count)
            #expect(all.features.first?["geometry"] == nil)
            let apn = all.features.first?.attributes["APN"] as? String ?? ""
            #expect(apn.range(of: #"^\d{4}-\d{3}-\d{3}$"#, options: .regularExpression) != nil)
            let mercator = try await client.query(server, .parcels, [("geometry", box), ("f", "json")])
            let rings = (mercator.features.first?["geometry"] as? [String: Any])?["rings"] as? [[[Double]]] ?? []
            #expect(rings.first?.first.map { $0[0] < -13_000_000 } == true)
            #expect(((mercator["spatialReference"] as? [String: Any])?["wkid"] as? NSNumber)?.intValue == 102100)
            let geographic = try await client.query(server, .parcels, [("geometry", box), ("outSR", "4326"), ("f", "json")])
            let ring = ((geographic.features.first?["geometry"] as? [String: Any])?["rings"] as? [[[Double]]])?.first ?? []
            #expect(!ring.isEmpty && ring.allSatisfy { abs($0[0] + 118.805) < 0.01 && abs($0[1] - 34.03) < 0.01 })
            #expect(ring.first == ring.last)
            #expect(((geographic["spatialReference"] as? [String: Any])?["wkid"] as? NSNumber)?.intValue == 4326)
            let bad = try await client.query(server, .parcels, [("geometry", box), ("outFields", "APN,Nope"), ("f", "json")])
            #expect(bad.errorCode == 400)
            #expect(bad.errorDetails.first?.contains("Nope") == true)
        }
    }

    @Test("returnIdsOnly is uncapped; returnCountOnly counts; outStatistics and returnExtentOnly work")
    func idsAndCounts() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let ids = try await client.query(server, .parcels, [("where", "1=1"), ("returnIdsOnly", "true"), ("f", "json")]).objectIDs
            #expect(ids.count == server.dataset.parcelCount)
            #expect(ids == Array(1...server.dataset.parcelCount))
            let count = try await client.query(server, .parcels, [("where", "UseType = 'Residential'"), ("returnCountOnly", "true"), ("f", "json")])
            #expect(count.countResult == (try server.dataset.groundTruthObjectIDs(.parcels, where: "UseType = 'Residential'").count))
            let statistics = try await client.query(server, .parcels, [
                ("where", "1=1"), ("outStatistics", #"[{"statisticType":"max","onStatisticField":"OBJECTID","outStatisticFieldName":"top"},{"statisticType":"count","onStatisticField":"OBJECTID"}]"#),
                ("f", "json"),
            ])
            #expect(statistics.features.first?.attributes.int("top") == server.dataset.parcelCount)
            #expect(statistics.features.first?.attributes.int("count_OBJECTID") == server.dataset.parcelCount)
            let none = try await client.query(server, .cities, [("where", "POP2000 < 0"), ("returnIdsOnly", "true"), ("f", "json")])
            #expect(none["objectIds"] is NSNull)
            let noParcels = try await client.query(server, .parcels, [("where", "1=0"), ("returnIdsOnly", "true"), ("f", "json")])
            #expect(noParcels.objectIDs.isEmpty && noParcels["objectIds"] is [Any])
        }
    }

    @Test("orderByFields sorts by any field, either way, ties by OBJECTID")
    func ordering() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let box = SampleDataset.seedExtent.queryText
            let descending = try await client.query(server, .parcels, [
                ("geometry", box), ("orderByFields", "Roll_LandValue DESC"), ("outFields", "Roll_LandValue"), ("f", "json"),
            ])
            let values = descending.features.compactMap { $0.attributes.int("Roll_LandValue") }
            #expect(values.count == 2000)
            #expect(values == values.sorted(by: >))
            let byID = try await client.query(server, .parcels, [("geometry", box), ("orderByFields", "OBJECTID DESC"), ("returnGeometry", "false"), ("f", "json")])
            let ids = byID.featureIDs
            #expect(ids == ids.sorted(by: >) && ids.count == 2000)
            let all = try server.dataset.groundTruthObjectIDs(.parcels, envelope: SampleDataset.seedExtent)
            #expect(ids.first == all.last)
            let byName = try await client.query(server, .cities, [("where", "ST = 'CA'"), ("orderByFields", "CITY_NAME ASC, POP2000 DESC"), ("outFields", "CITY_NAME"), ("f", "json")])
            let names = byName.features.compactMap { $0.attributes["CITY_NAME"] as? String }
            #expect(names.count > 10 && names == names.sorted())
        }
    }

    @Test("f=geojson: a FeatureCollection in WGS 84 with ids and exceededTransferLimit under properties")
    func geoJSON() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let collection = try await client.query(server, .parcels, [
                ("geometry", SampleDataset.seedExtent.queryText), ("outFields", "APN"), ("f", "geojson"),
            ])
            #expect(collection["type"] as? String == "FeatureCollection")
            #expect((collection["properties"] as? [String: Any])?["exceededTransferLimit"] as? Bool == true)
            let feature = collection.features.first ?? [:]
            #expect(feature["id"] is NSNumber)
            #expect((feature["properties"] as? [String: Any])?["APN"] is String)
            let coordinates = (feature["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]] ?? []
            #expect(coordinates.first?.allSatisfy { abs($0[0] + 118.8) < 0.1 && abs($0[1] - 34.03) < 0.1 } == true)
            let cities = try await client.query(server, .cities, [("where", "ST = 'TX'"), ("f", "geojson")])
            #expect((cities.features.first?["geometry"] as? [String: Any])?["type"] as? String == "Point")
            #expect(cities["properties"] == nil)
        }
    }

    @Test("GET and POST (form body) give the same answer")
    func getAndPost() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let parameters = [
                ("where", "TaxRateArea = 10853"), ("geometry", Self.small.queryText), ("outFields", "*"),
                ("orderByFields", "APN"), ("f", "json"),
            ]
            let get = try await client.get(server.queryURL(.parcels), parameters)
            let post = try await client.post(server.queryURL(.parcels), parameters)
            #expect(get.status == 200 && post.status == 200)
            #expect(get.body == post.body)
            #expect(try get.jsonObject().features.count > 0)
            let methods = server.statistics.recentQueries(.parcels).map(\.method)
            #expect(methods == ["GET", "POST"])
            #expect(server.statistics.recentRequests.last?.parameter("where") == "TaxRateArea = 10853")
        }
    }

    @Test("the USA layers are in WGS 84 and accept Web Mercator geometry with inSR=102100")
    func projection() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let geographic = Envelope(xmin: -100, ymin: 35, xmax: -90, ymax: 42, spatialReference: .wgs84)
            let mercator = try geographic.projected(to: .webMercator)
            for layer in [SampleLayer.cities, .highways, .states, .counties] {
                let a = try await client.query(server, layer, [("geometry", geographic.queryText), ("returnIdsOnly", "true"), ("f", "json")]).objectIDs
                let b = try await client.query(server, layer, [("geometry", mercator.queryText), ("inSR", "102100"), ("returnIdsOnly", "true"), ("f", "json")]).objectIDs
                #expect(!a.isEmpty)
                #expect(a == b)
                #expect(a == (try server.dataset.groundTruthObjectIDs(layer, envelope: geographic)))
            }
            let projected = try await client.query(server, .states, [("where", "STATE_ABBR = 'CO'"), ("outSR", "102100"), ("f", "json")])
            let ring = ((projected.features.first?["geometry"] as? [String: Any])?["rings"] as? [[[Double]]])?.first ?? []
            #expect(ring.first.map { $0[0] < -11_000_000 && $0[1] > 4_000_000 } == true)
            let highway = try await client.query(server, .highways, [("where", "ROUTE_NAME = 'I-10'"), ("outFields", "*"), ("f", "json")])
            #expect((highway.features.first?["geometry"] as? [String: Any])?["paths"] != nil)
            #expect(highway.features.first?.attributes.int("POP2000") != nil)
        }
    }
}
