import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

/// The quirks of ``QueryQuirk``, each on a server that has it, each checked for the exact misbehaviour.
@Suite("Query quirks")
struct QueryQuirkTests {
    static func server(_ quirk: String, _ configure: (inout SampleServerConfiguration) -> Void = { _ in }) throws -> SampleServerConfiguration {
        var configuration = SampleServerConfiguration()
        try configuration.applyQueryQuirk(quirk)
        configure(&configuration)
        return configuration
    }

    static let countByFIPS = [
        ("where", "1=1"), ("outStatistics", #"[{"statisticType":"count","onStatisticField":"OBJECTID","outStatisticFieldName":"n"}]"#),
        ("groupByFieldsForStatistics", "FIPS"), ("f", "json"),
    ]

    @Test("statistics-fail: supportsStatistics is advertised, outStatistics answers 500 Cannot complete operation")
    func statisticsFail() async throws {
        try await TestSupport.withServer(try Self.server("statistics-fail")) { (server, client) async throws in
            let metadata = try await client.json(server.layerURL(.counties), [("f", "json")])
            #expect(metadata["supportsStatistics"] as? Bool == true)
            let answer = try await client.query(server, .counties, Self.countByFIPS)
            #expect(answer.errorCode == 500)
            #expect(answer.error?["message"] as? String == "Cannot complete operation.")
            let plain = try await client.query(server, .counties, [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")])
            #expect(plain.countResult == server.dataset.featureCount(.counties))
        }
    }

    @Test("aggregate-paging-ignored: without the flag, paging parameters are ignored and every page is the first")
    func aggregatePagingIgnored() async throws {
        let configuration = try Self.server("aggregate-paging-ignored") { $0.queryOptions.supportsPaginationOnAggregatedQueries = false }
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let metadata = try await client.json(server.layerURL(.counties), [("f", "json")])
            #expect((metadata["advancedQueryCapabilities"] as? [String: Any])?["supportsPaginationOnAggregatedQueries"] as? Bool == false)
            let first = try await client.query(server, .counties, Self.countByFIPS + [("resultRecordCount", "1000")])
            let second = try await client.query(server, .counties, Self.countByFIPS + [("resultOffset", "1000"), ("resultRecordCount", "1000")])
            #expect(first.features.count == 1000 && first.exceededTransferLimit == true)
            #expect(second.features.map { $0.attributes["FIPS"] as? String } == first.features.map { $0.attributes["FIPS"] as? String })
        }
    }

    @Test("with pagination on aggregated queries, resultOffset/resultRecordCount walk every group once")
    func aggregatePaging() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            var groups: [String] = []
            var total = 0
            var offset = 0
            while true {
                let page = try await client.query(server, .counties, Self.countByFIPS + [
                    ("resultOffset", String(offset)), ("resultRecordCount", "700"), ("orderByFields", "n DESC, FIPS"),
                ])
                groups += page.features.map { $0.attributes["FIPS"] as? String ?? "" }
                total += page.features.reduce(0) { $0 + ($1.attributes.int("n") ?? 0) }
                offset += page.features.count
                if page.exceededTransferLimit != true { break }
            }
            #expect(groups.count > 1000 && Set(groups).count == groups.count)
            #expect(total == server.dataset.featureCount(.counties))
        }
    }

    @Test("uppercase-statistic-names: statistic fields come back upper-cased, group fields as they are")
    func uppercaseNames() async throws {
        try await TestSupport.withServer(try Self.server("uppercase-statistic-names")) { (server, client) async throws in
            let answer = try await client.query(server, .parcelSales, [
                ("where", "DocType = 'Vector 1,3'"), ("groupByFieldsForStatistics", "DocType"), ("orderByFields", "avgPrice"),
                ("outStatistics", #"[{"statisticType":"avg","onStatisticField":"SalePrice","outStatisticFieldName":"avgPrice"}]"#),
                ("f", "json"),
            ])
            #expect(answer.features.first?.attributes["AVGPRICE"] as? NSNumber == 2)
            #expect(answer.features.first?.attributes["avgPrice"] == nil)
            #expect((answer["fields"] as? [[String: Any]])?.map { $0["name"] as? String ?? "" } == ["DocType", "AVGPRICE"])
        }
    }

    @Test("short-pages: pages hold half of what was asked, exceededTransferLimit stays true on the last one")
    func shortPages() async throws {
        try await TestSupport.withServer(try Self.server("LA_County_Parcels/FeatureServer/1=short-pages")) { (server, client) async throws in
            var ids: [Int] = []
            var pages: [[String: Any]] = []
            while pages.count < 200 {
                let page = try await client.query(server, .parcelSales, [
                    ("where", "1=1"), ("outFields", "OBJECTID"), ("resultOffset", String(ids.count)), ("resultRecordCount", "1000"),
                    ("orderByFields", "OBJECTID"), ("returnGeometry", "false"), ("f", "json"),
                ])
                pages.append(page)
                ids += page.featureIDs
                if page.exceededTransferLimit != true { break }
            }
            #expect(ids == server.dataset.objectIDs(.parcelSales))
            #expect(pages.first?.features.count == 500 && pages.first?.exceededTransferLimit == true)
            #expect(pages.dropLast().last?.exceededTransferLimit == true && pages.last?.features.isEmpty == true)
        }
    }

    @Test("shuffled-pages: each page is ordered, the sequence of pages is not; order-ignored: ids in OBJECTID order")
    func ordering() async throws {
        try await TestSupport.withServer(try Self.server("USA/MapServer/0=shuffled-pages")) { (server, client) async throws in
            var values: [[Int]] = []
            var ids: [Int] = []
            for offset in stride(from: 0, to: server.dataset.featureCount(.cities), by: 1000) {
                let page = try await client.query(server, .cities, [
                    ("where", "1=1"), ("outFields", "OBJECTID,POP2000"), ("orderByFields", "POP2000 DESC"),
                    ("resultOffset", String(offset)), ("resultRecordCount", "1000"), ("returnGeometry", "false"), ("f", "json"),
                ])
                values.append(page.features.compactMap { $0.attributes.int("POP2000") })
                ids += page.featureIDs
            }
            #expect(values.allSatisfy { $0 == $0.sorted(by: >) })
            #expect(values.flatMap { $0 } != values.flatMap { $0 }.sorted(by: >))
            #expect(Set(ids).count == server.dataset.featureCount(.cities) && ids.count == Set(ids).count)
        }
        try await TestSupport.withServer(try Self.server("order-ignored")) { (server, client) async throws in
            let metadata = try await client.json(server.layerURL(.cities), [("f", "json")])
            #expect((metadata["advancedQueryCapabilities"] as? [String: Any])?["supportsOrderBy"] as? Bool == true)
            let page = try await client.query(server, .cities, [
                ("where", "1=1"), ("orderByFields", "POP2000 DESC"), ("resultRecordCount", "50"), ("f", "json"),
            ])
            #expect(page.featureIDs == Array(1...50))
        }
    }
}
