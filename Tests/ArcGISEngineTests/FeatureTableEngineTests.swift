import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import SampleFeatureServer
import Testing

@testable import ArcGISEngine

/// Statistics, distinct values, extents, orders, time windows and object ids through the engine against the
/// sample server over loopback, with each capability on and off and each known quirk: every way of answering
/// gives the same answer, and the result says who computed it. The expected values are computed here from
/// the layer's raw rows (`f=json`, every feature), independently of the engine.
@Suite("ArcGIS feature-table queries end to end")
struct FeatureTableEngineTests {
    static let sales = SampleLayer.parcelSales

    /// Every sale's attributes, fetched raw.
    static func rawSales(_ server: SampleFeatureServer) async throws -> [[String: ParsedJSON]] {
        var rows: [[String: ParsedJSON]] = []
        while true {
            let url = server.queryURL(sales) + "?where=1%3D1&outFields=*&returnGeometry=false&orderByFields=OBJECTID"
                + "&resultOffset=\(rows.count)&resultRecordCount=1000&f=json"
            let page = try ParsedJSON(parsing: try await ArcGISTestSupport.fetch(url))
            let features = page["features"]?.arrayValue ?? []
            rows += features.compactMap { $0["attributes"]?.objectValue }
            if features.isEmpty || page["exceededTransferLimit"]?.boolValue != true { return rows }
        }
    }

    static let statistics = [
        StatisticDefinition(type: .count, field: "SalePrice", name: "n"),
        StatisticDefinition(type: .sum, field: "SalePrice", name: "total"),
        StatisticDefinition(type: .avg, field: "SalePrice", name: "mean"),
        StatisticDefinition(type: .min, field: "SalePrice", name: "low"),
        StatisticDefinition(type: .max, field: "SalePrice", name: "high"),
        StatisticDefinition(type: .stddev, field: "SalePrice", name: "sd"),
        StatisticDefinition(type: .var, field: "SalePrice", name: "variance"),
        StatisticDefinition(type: .percentileCont, field: "SalePrice", name: "median", percentile: 0.5),
        StatisticDefinition(type: .percentileDisc, field: "SalePrice", name: "p90", percentile: 0.9),
    ]

    static func statisticsQuery(orderBy: [OrderTerm] = []) -> ServiceQuery {
        ServiceQuery(result: .statistics, orderBy: orderBy, statistics: statistics, groupBy: ["UseType"])
    }

    /// The statistics rows, as numbers by group and name (doubles, for comparison within a tolerance).
    static func table(_ result: ServiceLayerResult) -> [String: [String: Double?]] {
        guard case .statistics(let rows) = result.selection else { return [:] }
        var table: [String: [String: Double?]] = [:]
        for row in rows {
            let group = row.group.map { "\($0.value)" }.joined(separator: "|")
            var values: [String: Double?] = [:]
            for value in row.values {
                switch value.value {
                case .integer(let number): values[value.name] = Double(number)
                case .double(let number): values[value.name] = number
                default: values[value.name] = .some(nil)
                }
            }
            table[group] = values
        }
        return table
    }

    static func close(_ a: [String: [String: Double?]], _ b: [String: [String: Double?]]) -> Bool {
        guard a.keys.sorted() == b.keys.sorted() else { return false }
        for (group, values) in a {
            guard let other = b[group], values.keys.sorted() == other.keys.sorted() else { return false }
            for (name, value) in values {
                switch (value, other[name] ?? nil) {
                case (nil, nil): continue
                case (let x?, let y?): if abs(x - y) > 1e-6 * max(1, abs(x)) { return false }
                default: return false
                }
            }
        }
        return true
    }

    @Test("Grouped statistics: the service's, the worker's (no supportsStatistics), and after a failing claim agree with the raw rows")
    func groupedStatisticsAgree() async throws {
        let expected: [String: [String: Double?]] = try await ArcGISTestSupport.withEngine { server, _ in
            let rows = try await Self.rawSales(server)
            var prices: [String: [Double]] = [:]
            for row in rows {
                let group = AttributeColumnsForTests.text(row["UseType"])
                prices[group, default: []] += row["SalePrice"]?.numberValue.map { [$0] } ?? []
            }
            return prices.mapValues(NaiveStatistics.values)
        }
        var seen: [(String, ComputationSite?)] = []
        for (options, quirks, site) in [
            ([String](), [String](), ComputationSite.server), (["supportsStatistics=false"], [], .worker),
            ([], ["statistics-fail"], .worker), (["supportsPercentileStatistics=false"], [], .worker),
            ([], ["uppercase-statistic-names"], .server), (["supportsStatistics=false"], ["short-pages"], .worker),
        ] {
            let result = try await ArcGISTestSupport.withEngine(queryOptions: options, queryQuirks: quirks) { server, engine in
                try await engine.query(layer: server.layerURL(Self.sales), Self.statisticsQuery())
            }
            #expect(result.aggregatedBy == site, "\(options) \(quirks)")
            #expect(Self.close(Self.table(result), expected), "\(options) \(quirks): \(Self.table(result)) vs \(expected)")
            seen.append(("\(options)\(quirks)", result.aggregatedBy))
        }
        #expect(seen.count == 6)
    }

    @Test("The detector vectors: percentile_cont 9.1 and percentile_disc 9 over 1…10; stddev √2 and var 2 over {1,3}; null for one value")
    func detectorVectors() async throws {
        for options in [[String](), ["supportsStatistics=false"]] {
            let result = try await ArcGISTestSupport.withEngine(queryOptions: options) { server, engine in
                try await engine.query(
                    layer: server.layerURL(Self.sales),
                    ServiceQuery(whereClause: try WhereClause("DocType LIKE 'Vector%'"), result: .statistics,
                                 statistics: Self.statistics, groupBy: ["DocType"]))
            }
            let table = Self.table(result)
            let tenKey = table.keys.first { $0.contains("1-10") } ?? ""
            let pairKey = table.keys.first { $0.contains("1,3") } ?? ""
            let singleKey = table.keys.first { $0.contains("single") } ?? ""
            #expect(table[tenKey]?["median"] == 5.5)
            #expect(table[tenKey]?["p90"] == 9)
            #expect(abs(((table[pairKey]?["sd"] ?? nil) ?? 0) - 2.0.squareRoot()) < 1e-9)
            #expect(table[pairKey]?["variance"] == 2)
            #expect(table[singleKey].map { ($0["sd"] ?? 1.0) == nil } == true)
        }
    }

    @Test("A MapServer sublayer answers grouped statistics; the worker's agree when it cannot")
    func mapServerStatistics() async throws {
        let query = ServiceQuery(
            result: .statistics, orderBy: [OrderTerm(field: "people", descending: true)],
            statistics: [StatisticDefinition(type: .sum, field: "POP2000", name: "people"), StatisticDefinition(type: .count, field: "POP2000", name: "n")],
            groupBy: ["STATE_NAME"])
        let served = try await ArcGISTestSupport.withEngine { server, engine in try await engine.query(layer: server.layerURL(.counties), query) }
        let computed = try await ArcGISTestSupport.withEngine(queryOptions: ["USA/MapServer/3=supportsStatistics=false"]) { server, engine in
            try await engine.query(layer: server.layerURL(.counties), query)
        }
        #expect(served.aggregatedBy == ComputationSite.server)
        #expect(computed.aggregatedBy == ComputationSite.worker)
        guard case .statistics(let a) = served.selection, case .statistics(let b) = computed.selection else {
            Issue.record("not statistics")
            return
        }
        #expect(a.count > 40)
        #expect(a == b)
        #expect(served.orderedBy == ComputationSite.server)
        #expect(computed.orderedBy == ComputationSite.worker)
    }

    @Test("Cut grouped rows without paging on aggregated queries are never a silent cut: the worker computes")
    func aggregatedCutFallsBack() async throws {
        let query = ServiceQuery(result: .statistics, statistics: [StatisticDefinition(type: .count, field: "APN", name: "n")], groupBy: ["APN"])
        let paged = try await ArcGISTestSupport.withEngine { server, engine in try await engine.query(layer: server.layerURL(Self.sales), query) }
        let cut = try await ArcGISTestSupport.withEngine(queryOptions: ["supportsPaginationOnAggregatedQueries=false"]) { server, engine in
            try await engine.query(layer: server.layerURL(Self.sales), query)
        }
        #expect(paged.selection.itemCount > 1000)
        #expect(cut.selection.itemCount == paged.selection.itemCount)
        #expect(paged.aggregatedBy == ComputationSite.server)
        #expect(cut.aggregatedBy == ComputationSite.worker)
    }

    @Test("Distinct values and the extent: the service's and the worker's agree")
    func distinctAndExtent() async throws {
        let distinct = ServiceQuery(outFields: ["UseType", "DocType"], result: .distinct)
        let extent = ServiceQuery(result: .extent)
        let (serverDistinct, serverExtent) = try await ArcGISTestSupport.withEngine { server, engine in
            (try await engine.query(layer: server.layerURL(Self.sales), distinct), try await engine.query(layer: server.layerURL(Self.sales), extent))
        }
        let (workerDistinct, workerExtent) = try await ArcGISTestSupport.withEngine(
            queryOptions: ["supportsDistinct=false", "supportsReturningQueryExtent=false"]
        ) { server, engine in
            (try await engine.query(layer: server.layerURL(Self.sales), distinct), try await engine.query(layer: server.layerURL(Self.sales), extent))
        }
        #expect(serverDistinct.aggregatedBy == ComputationSite.server)
        #expect(workerDistinct.aggregatedBy == ComputationSite.worker)
        guard case .distinct(let a) = serverDistinct.selection, case .distinct(let b) = workerDistinct.selection else {
            Issue.record("not distinct selections")
            return
        }
        #expect(a.count > 3)
        #expect(a == b)
        guard case .extent(let x?) = serverExtent.selection, case .extent(let y?) = workerExtent.selection else {
            Issue.record("no extents")
            return
        }
        #expect(serverExtent.count == workerExtent.count)
        #expect(abs(x.xmin - y.xmin) < 1e-6 && abs(x.ymax - y.ymax) < 1e-6 && abs(x.xmax - y.xmax) < 1e-6 && abs(x.ymin - y.ymin) < 1e-6)
    }

    @Test("The ten most expensive sales: the service's order (proved by two counts), the worker's, and after out-of-order pages are the same ids", arguments: [false, true])
    func orderedTopTen(withoutNulls: Bool) async throws {
        let clause = withoutNulls ? try WhereClause("SalePrice IS NOT NULL") : nil
        let query = ServiceQuery(whereClause: clause, maxFeatures: 10, result: .ids, orderBy: [OrderTerm(field: "SalePrice", descending: true)])
        var answers: [([Int], ComputationSite?)] = []
        for (options, quirks) in [([String](), [String]()), (["supportsOrderBy=false"], []), ([], ["shuffled-pages"]), ([], ["order-ignored"])] {
            let result = try await ArcGISTestSupport.withEngine(queryOptions: options, queryQuirks: quirks) { server, engine in
                try await engine.query(layer: server.layerURL(Self.sales), query)
            }
            answers.append((ArcGISTestSupport.ids(result), result.orderedBy))
        }
        let expected: [Int] = try await ArcGISTestSupport.withEngine { server, _ in
            let rows = try await Self.rawSales(server)
            return rows.compactMap { row -> (Double?, Int)? in
                guard let id = row["OBJECTID"]?.integerValue else { return nil }
                let price = row["SalePrice"]?.numberValue
                if withoutNulls, price == nil { return nil }
                return (price, id)
            }.sorted { a, b in
                // Descending, nulls first (PostgreSQL), ties by id ascending.
                switch (a.0, b.0) {
                case (nil, nil): return a.1 < b.1
                case (nil, _): return true
                case (_, nil): return false
                case (let x?, let y?): return x != y ? x > y : a.1 < b.1
                }
            }.prefix(10).map(\.1)
        }
        for (index, answer) in answers.enumerated() { #expect(answer.0 == expected, "answer \(index)") }
        // With nulls in the field the service's placement cannot be trusted: the worker orders every time.
        #expect(answers.map(\.1) == [withoutNulls ? .server : .worker, .worker, .worker, .worker])
    }

    @Test("A time window counts the sales in it; on a layer that is not time-aware it fails, never everything")
    func timeWindow() async throws {
        let start: Int64 = 1_483_228_800_000  // 2017-01-01T00:00:00Z
        let end: Int64 = 1_514_764_799_999  // 2017-12-31T23:59:59.999Z
        try await ArcGISTestSupport.withEngine { server, engine in
            let rows = try await Self.rawSales(server)
            let expected = rows.filter { row in
                guard let date = row["SaleDate"]?.numberValue else { return false }
                return date >= Double(start) && date <= Double(end)
            }.count
            var query = ServiceQuery(result: .count)
            query.time = TimeWindow(start: start, end: end)
            let counted = try await engine.query(layer: server.layerURL(Self.sales), query)
            #expect(counted.count == expected)
            #expect(expected > 0 && expected < rows.count)
            let error = await #expect(throws: FeatureServiceError.self) {
                _ = try await engine.query(layer: server.layerURL(.parcels), query)
            }
            #expect(error?.code == .invalidQuery)
        }
    }

    @Test("objectIds are ANDed with the where clause")
    func objectIds() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let query = ServiceQuery(
                whereClause: try WhereClause("OBJECTID <= 2"), result: .ids,
                objectIds: [.integer(1), .integer(2), .integer(3), .integer(999_999)])
            let result = try await engine.query(layer: server.layerURL(Self.sales), query)
            #expect(ArcGISTestSupport.ids(result) == [1, 2])
        }
    }
}

/// Test-side readers and a naive statistics oracle (independent of the engine's toolkit).
enum AttributeColumnsForTests {
    static func text(_ value: ParsedJSON?) -> String {
        switch value {
        case .string(let text)?: "string(\"\(text)\")"
        default: "null"
        }
    }
}

enum NaiveStatistics {
    /// count, total, mean, low, high, sd, variance, median (percentile_cont 0.5), p90 (percentile_disc 0.9).
    static func values(_ values: [Double]) -> [String: Double?] {
        let n = Double(values.count)
        let sorted = values.sorted()
        let total = values.reduce(0, +)
        let mean = values.isEmpty ? nil : total / n
        let variance: Double? = values.count < 2 ? nil : values.map { ($0 - total / n) * ($0 - total / n) }.reduce(0, +) / (n - 1)
        func cont(_ p: Double) -> Double? {
            guard !sorted.isEmpty else { return nil }
            let position = p * (n - 1)
            let low = Int(position.rounded(.down))
            let high = min(low + 1, sorted.count - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        }
        func disc(_ p: Double) -> Double? {
            guard !sorted.isEmpty else { return nil }
            let index = max(0, Int((p * n).rounded(.up)) - 1)
            return sorted[min(index, sorted.count - 1)]
        }
        return [
            "n": n, "total": values.isEmpty ? nil : total, "mean": mean, "low": sorted.first, "high": sorted.last,
            "sd": variance.map { $0.squareRoot() }, "variance": variance, "median": cont(0.5), "p90": disc(0.9),
        ]
    }
}
