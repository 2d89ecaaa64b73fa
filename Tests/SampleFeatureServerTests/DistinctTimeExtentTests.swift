import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

/// returnDistinctValues, `time=` on the time-aware layer (and its absence elsewhere), objectIds with time,
/// and returnExtentOnly's FeatureServer and MapServer shapes.
@Suite("Distinct values, time and extent")
struct DistinctTimeExtentTests {
    static let docTypes: [String?] = [
        nil, "Grant Deed", "Quitclaim Deed", "Sheriff Deed", "Trust Transfer", "Vector 1,3", "Vector 1-10", "Vector nulls",
        "Vector single",
    ]

    @Test("returnDistinctValues: distinct combinations with NULL a value, ordered; with returnCountOnly the count")
    func distinct() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let answer = try await client.query(server, .parcelSales, [
                ("where", "1=1"), ("outFields", "DocType"), ("returnDistinctValues", "true"), ("returnGeometry", "false"),
                ("orderByFields", "DocType DESC"), ("f", "json"),
            ])
            let values = answer.features.map { $0.attributes["DocType"] as? String }
            #expect(values == Array(Self.docTypes.reversed()))
            #expect((answer["fields"] as? [[String: Any]])?.first?["name"] as? String == "DocType")
            let count = try await client.query(server, .parcelSales, [
                ("where", "1=1"), ("outFields", "DocType"), ("returnDistinctValues", "true"), ("returnCountOnly", "true"), ("f", "json"),
            ])
            #expect(count.countResult == Self.docTypes.count)
            let pairs = try await client.query(server, .parcelSales, [
                ("where", "DocType LIKE 'Vector%'"), ("outFields", "DocType,SalePrice"), ("returnDistinctValues", "true"), ("f", "json"),
            ])
            #expect(pairs.features.count == 14)  // 10 + 2 + 1 + 1
            #expect(pairs.features.first?.attributes["DocType"] as? String == "Vector 1,3")  // default: ascending by the columns
            let bad = try await client.query(server, .parcelSales, [
                ("where", "1=1"), ("outFields", "DocType"), ("returnDistinctValues", "true"), ("orderByFields", "SalePrice"), ("f", "json"),
            ])
            #expect(bad.errorCode == 400)
        }
    }

    @Test("time= filters the time-aware layer inclusively, with open ends and instants, ANDed with objectIds and where")
    func time() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            func ids(_ parameters: [(String, String)]) async throws -> [Int] {
                try await client.query(server, .parcelSales, parameters + [("returnIdsOnly", "true"), ("f", "json")]).objectIDs.sorted()
            }
            let vectors = ("where", "DocType LIKE 'Vector%' OR OBJECTID = 15")
            #expect(try await ids([vectors, ("time", "1615715999999,1636273800000")]) == [2, 3, 4, 15])
            #expect(try await ids([vectors, ("time", "null,1560600000000")]) == [1, 9, 11, 12])
            #expect(try await ids([vectors, ("time", "1735689599000, null")]) == [10])
            #expect(try await ids([vectors, ("time", "1560600000000")]) == [9, 11, 12])
            #expect(try await ids([("objectIds", "1,2,3,9,13"), ("time", "null,1583661600000")]) == [1, 9])
            #expect(try await ids([vectors, ("time", "null,null")]).count == 13)  // NULL dates never match
            let bad = try await client.query(server, .parcelSales, [vectors, ("time", "soon"), ("f", "json")])
            #expect(bad.errorCode == 400)
            let metadata = try await client.json(server.layerURL(.parcelSales), [("f", "json")])
            let info = metadata["timeInfo"] as? [String: Any]
            #expect(info?["startTimeField"] as? String == "SaleDate")
            #expect((info?["timeExtent"] as? [NSNumber])?.map(\.int64Value) == [1_420_070_400_000, 1_735_689_599_000])
            #expect((info?["timeReference"] as? [String: Any])?["timeZone"] as? String == "UTC")
            let cities = try await client.query(server, .cities, [("where", "1=1"), ("time", "0,1"), ("returnCountOnly", "true"), ("f", "json")])
            #expect(cities.countResult == server.dataset.featureCount(.cities))
            let plain = try await client.json(server.layerURL(.cities), [("f", "json")])
            #expect(plain["timeInfo"] == nil)
        }
    }

    @Test("returnExtentOnly: FeatureServer answers count and extent, MapServer the extent (and count with returnCountOnly)")
    func extent() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let featureServer = try await client.query(server, .parcelSales, [("where", "DocType LIKE 'Vector%'"), ("returnExtentOnly", "true"), ("f", "json")])
            #expect(featureServer.countResult == 14)
            let box = featureServer["extent"] as? [String: Any]
            #expect(box?["xmin"] is NSNumber && (box?["spatialReference"] as? [String: Any])?["wkid"] as? NSNumber == 102100)
            let mapServer = try await client.query(server, .counties, [("where", "1=1"), ("returnExtentOnly", "true"), ("f", "json")])
            #expect(mapServer.countResult == nil && mapServer["extent"] is [String: Any])
            let both = try await client.query(server, .counties, [
                ("where", "1=1"), ("returnExtentOnly", "true"), ("returnCountOnly", "true"), ("f", "json"),
            ])
            #expect(both.countResult == server.dataset.featureCount(.counties) && both["extent"] is [String: Any])
        }
    }
}

/// The parcel sales are generated from the seed alone: the same seed and parcel count give the same sales.
@Suite("Parcel sales data")
struct ParcelSalesDataTests {
    @Test("deterministic per seed, with NULL dates and prices, all dates inside the published time extent")
    func deterministic() throws {
        let a = try SampleDataset(parcelCount: 2_000, seed: 7)
        let b = try SampleDataset(parcelCount: 2_000, seed: 7)
        let c = try SampleDataset(parcelCount: 2_000, seed: 8)
        let clause = "SalePrice > 400000 AND SaleDate > TIMESTAMP '2020-01-01 00:00:00'"
        #expect(try a.groundTruthObjectIDs(.parcelSales, where: clause) == b.groundTruthObjectIDs(.parcelSales, where: clause))
        #expect(try a.groundTruthObjectIDs(.parcelSales, where: clause) != c.groundTruthObjectIDs(.parcelSales, where: clause))
        #expect(a.featureCount(.parcelSales) == 6_000)
        let nullDates = try a.groundTruthObjectIDs(.parcelSales, where: "SaleDate IS NULL").count
        #expect(nullDates > 150 && nullDates < 450)
        #expect(try a.groundTruthObjectIDs(.parcelSales, where: "SalePrice IS NULL").count > 50)
        let outside = "SaleDate < TIMESTAMP '2015-01-01 00:00:00' OR SaleDate > TIMESTAMP '2024-12-31 23:59:59'"
        #expect(try a.groundTruthObjectIDs(.parcelSales, where: outside).isEmpty)
    }
}
