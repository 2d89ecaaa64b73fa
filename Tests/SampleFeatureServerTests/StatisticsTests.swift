import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

/// `outStatistics` against hand-computed values (the reference's detector vectors, PostgreSQL semantics),
/// grouping, ordering over output names, and a ground truth computed from the features themselves.
@Suite("Statistics queries")
struct StatisticsTests {
    static func statistic(_ type: String, _ field: String, _ name: String, percentile: Double? = nil, order: String = "ASC") -> String {
        let parameters = percentile.map { #","statisticParameters":{"value":\#($0),"orderBy":"\#(order)"}"# } ?? ""
        return #"{"statisticType":"\#(type)","onStatisticField":"\#(field)","outStatisticFieldName":"\#(name)"\#(parameters)}"#
    }

    /// Every statistic type on SalePrice.
    static let allTypes = "[" + [
        statistic("count", "SalePrice", "n"), statistic("sum", "SalePrice", "total"), statistic("min", "SalePrice", "low"),
        statistic("max", "SalePrice", "high"), statistic("avg", "SalePrice", "mean"), statistic("stddev", "SalePrice", "sd"),
        statistic("var", "SalePrice", "variance"), statistic("PERCENTILE_CONT", "SalePrice", "pc", percentile: 0.9),
        statistic("percentile_disc", "SalePrice", "pd", percentile: 0.9),
        statistic("percentile_cont", "SalePrice", "pcDesc", percentile: 0.9, order: "DESC"),
        statistic("Percentile_Disc", "SalePrice", "pdDesc", percentile: 0.9, order: "desc"),
    ].joined(separator: ",") + "]"

    static func number(_ attributes: [String: Any], _ key: String) -> Double? { (attributes[key] as? NSNumber)?.doubleValue }

    @Test("every statistic type matches hand-computed values: 1..10, {1,3}, one value, only NULLs")
    func vectors() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            func run(_ docType: String) async throws -> [String: Any] {
                let answer = try await client.query(server, .parcelSales, [
                    ("where", "DocType = '\(docType)'"), ("outStatistics", Self.allTypes), ("f", "json"),
                ])
                #expect(answer.features.count == 1, "\(answer)")
                return answer.features.first?.attributes ?? [:]
            }
            let ten = try await run("Vector 1-10")
            #expect(ten.int("n") == 10 && Self.number(ten, "total") == 55 && ten.int("low") == 1 && ten.int("high") == 10)
            #expect(Self.number(ten, "mean") == 5.5)
            #expect(abs((Self.number(ten, "variance") ?? 0) - 82.5 / 9) < 1e-9)
            #expect(abs((Self.number(ten, "sd") ?? 0) - (82.5 / 9).squareRoot()) < 1e-9)
            #expect(abs((Self.number(ten, "pc") ?? 0) - 9.1) < 1e-9)
            #expect(Self.number(ten, "pd") == 9)
            #expect(abs((Self.number(ten, "pcDesc") ?? 0) - 1.9) < 1e-9)
            #expect(Self.number(ten, "pdDesc") == 2)
            let two = try await run("Vector 1,3")
            #expect(abs((Self.number(two, "sd") ?? 0) - 1.41421) < 1e-5)
            #expect(Self.number(two, "variance") == 2 && Self.number(two, "mean") == 2 && two.int("n") == 2)
            let one = try await run("Vector single")
            #expect(one["sd"] is NSNull && one["variance"] is NSNull && one.int("n") == 1 && Self.number(one, "pc") == 7)
            let nulls = try await run("Vector nulls")
            #expect(nulls.int("n") == 0)
            for key in ["total", "low", "high", "mean", "sd", "variance", "pc", "pd"] { #expect(nulls[key] is NSNull, "\(key)") }
        }
    }

    @Test("grouped statistics: one feature per group, attributes only, typed fields, NULL key a group, orderByFields on outputs")
    func grouped() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let outStatistics = "[" + Self.statistic("count", "SalePrice", "cnt") + "," + Self.statistic("avg", "SalePrice", "mean") + "]"
            let answer = try await client.query(server, .parcelSales, [
                ("where", "DocType LIKE 'Vector%' OR OBJECTID = 15"), ("outStatistics", outStatistics),
                ("groupByFieldsForStatistics", "DocType"), ("orderByFields", "cnt DESC, DocType"), ("f", "json"),
            ])
            let rows = answer.features.map(\.attributes)
            #expect(answer.features.allSatisfy { $0["geometry"] == nil })
            #expect(rows.map { $0["DocType"] as? String ?? "<null>" } == ["Vector 1-10", "Vector 1,3", "<null>", "Vector single", "Vector nulls"])
            #expect(rows.map { $0.int("cnt") ?? -1 } == [10, 2, 1, 1, 0])
            #expect(Self.number(rows[2], "mean") == 5)
            let fields = answer["fields"] as? [[String: Any]] ?? []
            #expect(fields.map { $0["name"] as? String ?? "" } == ["DocType", "cnt", "mean"])
            #expect(fields.map { $0["type"] as? String ?? "" } == ["esriFieldTypeString", "esriFieldTypeInteger", "esriFieldTypeDouble"])
            #expect((answer["fieldAliases"] as? [String: String])?["DocType"] == "Document Type")
            #expect(answer["objectIdFieldName"] as? String == "OBJECTID" && answer.exceededTransferLimit == false)  // hosted-style
            let bad = try await client.query(server, .parcelSales, [
                ("where", "1=1"), ("outStatistics", outStatistics), ("groupByFieldsForStatistics", "DocType"),
                ("orderByFields", "SalePrice"), ("f", "json"),
            ])
            #expect(bad.errorCode == 400)
            let tooMany = try await client.query(server, .parcelSales, [
                ("where", "1=1"), ("outStatistics", outStatistics), ("f", "json"),
                ("groupByFieldsForStatistics", "OBJECTID,APN,UseType,DocType,SalePrice,SaleDate,OBJECTID,APN,UseType"),
            ])
            #expect(tooMany.errorCode == nil)  // repeats collapse: 6 distinct fields
            let unknown = try await client.query(server, .parcelSales, [
                ("where", "1=1"), ("outStatistics", outStatistics), ("groupByFieldsForStatistics", "Nope"), ("f", "json"),
            ])
            #expect(unknown.errorCode == 400)
        }
    }

    @Test("a MapServer sublayer answers grouped statistics that match its features")
    func countiesGroundTruth() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            var truth: [String: (count: Int, sum: Int, low: Int, high: Int)] = [:]
            var offset = 0
            while true {
                let page = try await client.query(server, .counties, [
                    ("where", "1=1"), ("outFields", "STATE_NAME,POP2000"), ("returnGeometry", "false"),
                    ("resultOffset", String(offset)), ("f", "json"),
                ])
                for feature in page.features {
                    let state = feature.attributes["STATE_NAME"] as? String ?? ""
                    let population = feature.attributes.int("POP2000") ?? 0
                    let old = truth[state] ?? (0, 0, Int.max, Int.min)
                    truth[state] = (old.count + 1, old.sum + population, min(old.low, population), max(old.high, population))
                }
                offset += page.features.count
                if page.exceededTransferLimit != true || page.features.isEmpty { break }
            }
            #expect(offset == server.dataset.featureCount(.counties))
            let outStatistics = "[" + [
                Self.statistic("count", "POP2000", "n"), Self.statistic("sum", "POP2000", "total"),
                Self.statistic("min", "POP2000", "low"), Self.statistic("max", "POP2000", "high"),
            ].joined(separator: ",") + "]"
            let answer = try await client.query(server, .counties, [
                ("where", "1=1"), ("outStatistics", outStatistics), ("groupByFieldsForStatistics", "STATE_NAME"),
                ("orderByFields", "STATE_NAME"), ("f", "json"),
            ])
            let rows = answer.features.map(\.attributes)
            #expect(rows.count == truth.count)
            #expect(rows.map { $0["STATE_NAME"] as? String ?? "" } == truth.keys.sorted())
            for row in rows {
                let expected = truth[row["STATE_NAME"] as? String ?? ""]
                #expect(row.int("n") == expected?.count && row.int("total") == expected?.sum)
                #expect(row.int("low") == expected?.low && row.int("high") == expected?.high)
            }
            #expect(answer["displayFieldName"] as? String == "")
            #expect(answer["objectIdFieldName"] == nil && answer["exceededTransferLimit"] == nil)  // non-hosted MapServer
        }
    }

    @Test("bad statistics requests are ArcGIS 400s")
    func badRequests() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            for outStatistics in [
                #"[{"statisticType":"median","onStatisticField":"SalePrice"}]"#,
                #"[{"statisticType":"percentile_cont","onStatisticField":"SalePrice"}]"#,
                #"[{"statisticType":"percentile_cont","onStatisticField":"SalePrice","statisticParameters":{"value":1.5}}]"#,
                #"[{"statisticType":"percentile_cont","onStatisticField":"DocType","statisticParameters":{"value":0.5}}]"#,
                #"[{"statisticType":"count","onStatisticField":"SalePrice","outStatisticFieldName":"a b"}]"#,
                #"[{"statisticType":"avg","onStatisticField":"SaleDate"}]"#, #"[{"statisticType":"sum","onStatisticField":"DocType"}]"#,
            ] {
                let answer = try await client.query(server, .parcelSales, [("where", "1=1"), ("outStatistics", outStatistics), ("f", "json")])
                #expect(answer.errorCode == 400, "\(outStatistics)")
            }
            let orphan = try await client.query(server, .parcelSales, [("where", "1=1"), ("groupByFieldsForStatistics", "DocType"), ("f", "json")])
            #expect(orphan.errorCode == 400)
            let dates = try await client.query(server, .parcelSales, [("where", "1=1"), ("f", "json"), ("outStatistics",
                #"[{"statisticType":"min","onStatisticField":"SaleDate","outStatisticFieldName":"first"},{"statisticType":"percentile_disc","onStatisticField":"SaleDate","outStatisticFieldName":"median","statisticParameters":{"value":0.5}}]"#)])
            #expect(dates.features.first?.attributes.int("first") == 1_420_070_400_000)
            #expect((dates["fields"] as? [[String: Any]])?.map { $0["type"] as? String ?? "" } == ["esriFieldTypeDate", "esriFieldTypeDate"])
            let ungrouped = try await client.query(server, .parcelSales, [
                ("where", "1=1"), ("resultOffset", "5"), ("f", "json"),
                ("outStatistics", #"[{"statisticType":"count","onStatisticField":"OBJECTID","outStatisticFieldName":"n"}]"#),
            ])
            #expect(ungrouped.features.first?.attributes.int("n") == server.dataset.featureCount(.parcelSales))
        }
    }
}
