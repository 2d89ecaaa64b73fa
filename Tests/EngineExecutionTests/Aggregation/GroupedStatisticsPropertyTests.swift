import EngineExecution
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import Testing

/// GroupedStatistics against a naive reference written from the SQL definitions (two-pass variance, sorted
/// percentiles), on seeded random data with null groups and null values.
@Suite("GroupedStatistics against a naive reference")
struct GroupedStatisticsPropertyTests {
    static let definitions = [
        StatisticDefinition(type: .count, field: "v", name: "count"),
        StatisticDefinition(type: .sum, field: "v", name: "sum"),
        StatisticDefinition(type: .avg, field: "v", name: "avg"),
        StatisticDefinition(type: .var, field: "v", name: "var"),
        StatisticDefinition(type: .stddev, field: "v", name: "stddev"),
        StatisticDefinition(type: .min, field: "v", name: "min"),
        StatisticDefinition(type: .max, field: "v", name: "max"),
        StatisticDefinition(type: .percentileCont, field: "v", name: "cont", percentile: 0.3),
        StatisticDefinition(type: .percentileDisc, field: "v", name: "disc", percentile: 0.3),
    ]

    /// What PostgreSQL answers for one group's non-null doubles.
    static func reference(_ values: [Double]) -> [String: Double?] {
        let n = Double(values.count)
        guard !values.isEmpty else {
            return ["count": 0, "sum": nil, "avg": nil, "var": nil, "stddev": nil, "min": nil, "max": nil, "cont": nil, "disc": nil]
        }
        let sorted = values.sorted()
        let mean = values.reduce(0, +) / n
        let variance: Double? = values.count < 2 ? nil : values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (n - 1)
        let position = 0.3 * (n - 1)
        let (low, high) = (sorted[Int(position.rounded(.down))], sorted[Int(position.rounded(.up))])
        let row = max(1, Int((0.3 * n).rounded(.up)))
        return [
            "count": n, "sum": values.reduce(0, +), "avg": mean, "var": variance, "stddev": variance.map { $0.squareRoot() },
            "min": sorted.first, "max": sorted.last, "cont": low + (high - low) * (position - position.rounded(.down)),
            "disc": sorted[row - 1],
        ]
    }

    static func number(_ value: AttributeValue?) -> Double? {
        switch value {
        case .integer(let v)?: Double(v)
        case .double(let v)?: v
        default: nil
        }
    }

    @Test(arguments: [11, 12, 13, 14, 15] as [UInt64])
    func matchesTheReferenceOnRandomGroups(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var statistics = try GroupedStatistics(statistics: Self.definitions, groupBy: ["g"], layer: "L")
        var groups: [Int64?: [Double]] = [:]
        for _ in 0..<(50 + random.below(500)) {
            let group: Int64? = random.below(5) == 0 ? nil : Int64(random.below(6))
            let value: Double? = random.below(4) == 0 ? nil : (random.gaussian() * 1_000 + 1e6).rounded()
            try statistics.add([group.map { .integer($0) } ?? .null, value.map { .integer(Int64($0)) } ?? .null])
            groups[group, default: []].append(contentsOf: value.map { [$0] } ?? [])
        }
        let rows = try statistics.rows(orderBy: [])
        #expect(rows.count == groups.count)
        let expectedOrder = groups.keys.sorted { a, b in b == nil ? a != nil : (a.map { x in b.map { x < $0 } ?? true } ?? false) }
        #expect(rows.map { $0.group.first?.value } == expectedOrder.map { $0.map { .integer($0) } ?? .null })
        for row in rows {
            let key: Int64? = if case .integer(let g)? = row.group.first?.value { g } else { nil }
            let expected = Self.reference(groups[key] ?? [])
            for named in row.values {
                let want = expected[named.name] ?? nil
                let got = Self.number(named.value)
                if let want {
                    let got = try #require(got, "\(named.name) of group \(String(describing: key))")
                    #expect(abs(got - want) <= 1e-9 * max(1, abs(want)), "\(named.name) of group \(String(describing: key))")
                } else {
                    #expect(named.value == .null, "\(named.name) of group \(String(describing: key))")
                }
            }
        }
    }
}
