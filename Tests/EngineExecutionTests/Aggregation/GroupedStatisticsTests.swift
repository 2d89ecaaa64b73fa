import EngineExecution
import FeatureService
import QueryLanguage
import Testing

/// Worker-side statistics with PostgreSQL's aggregate semantics, on the reference's detector vectors.
@Suite("GroupedStatistics")
struct GroupedStatisticsTests {
    static func value(_ row: StatisticsRow?, _ name: String) -> AttributeValue? {
        row?.values.first { $0.name == name }?.value
    }

    static func double(_ value: AttributeValue?) -> Double? {
        if case .double(let double)? = value { return double }
        return nil
    }

    @Test func percentilesOfOneToTenMatchPostgreSQL() throws {
        var statistics = try GroupedStatistics(
            statistics: [
                StatisticDefinition(type: .percentileCont, field: "v", name: "cont", percentile: 0.9),
                StatisticDefinition(type: .percentileDisc, field: "v", name: "disc", percentile: 0.9),
                StatisticDefinition(type: .percentileDisc, field: "v", name: "median", percentile: 0.5),
            ],
            groupBy: [], layer: "L")
        for value in [7, 3, 10, 1, 5, 9, 2, 8, 4, 6] as [Int64] { try statistics.add([.integer(value)]) }
        try statistics.add([.null])
        #expect(statistics.heldValues == 10)
        let row = try statistics.rows(orderBy: []).first
        let cont = try #require(Self.double(Self.value(row, "cont")))
        #expect(abs(cont - 9.1) < 1e-12)
        #expect(Self.value(row, "disc") == .integer(9))
        #expect(Self.value(row, "median") == .integer(5))
    }

    /// p·n not a whole number: percentile_disc takes row ⌈p·n⌉ (not ⌊p·n⌋), percentile_cont interpolates.
    @Test func aQuarterOfOneToTenWithTies() throws {
        var statistics = try GroupedStatistics(
            statistics: [
                StatisticDefinition(type: .percentileCont, field: "v", name: "cont", percentile: 0.25),
                StatisticDefinition(type: .percentileDisc, field: "v", name: "disc", percentile: 0.25),
            ],
            groupBy: [], layer: "L")
        for value in (1...10).reversed() as [Int64] { try statistics.add([.integer(value)]) }
        let row = try statistics.rows(orderBy: []).first
        #expect(Self.value(row, "cont") == .double(3.25))
        #expect(Self.value(row, "disc") == .integer(3))
        var ties = try GroupedStatistics(
            statistics: [StatisticDefinition(type: .percentileDisc, field: "v", name: "disc", percentile: 0.5)], groupBy: [], layer: "L")
        for value in [2.5, 1.0, 2.5, 2.5, 7.0] { try ties.add([.double(value)]) }
        #expect(try Self.value(ties.rows(orderBy: []).first, "disc") == .double(2.5))
    }

    @Test func sampleStandardDeviationAndVarianceOfOneAndThree() throws {
        var statistics = try GroupedStatistics(
            statistics: [
                StatisticDefinition(type: .stddev, field: "v", name: "sd"), StatisticDefinition(type: .var, field: "v", name: "var"),
                StatisticDefinition(type: .avg, field: "v", name: "avg"), StatisticDefinition(type: .sum, field: "v", name: "sum"),
            ],
            groupBy: [], layer: "L")
        try statistics.add([.integer(1)])
        try statistics.add([.integer(3)])
        let row = try statistics.rows(orderBy: []).first
        #expect(abs((Self.double(Self.value(row, "sd")) ?? 0) - 1.4142135623730951) < 1e-12)
        #expect(Self.value(row, "var") == .double(2))
        #expect(Self.value(row, "avg") == .double(2))
        #expect(Self.value(row, "sum") == .integer(4))
        #expect(statistics.heldValues == 0)
    }

    /// Far from zero, a sum-of-squares variance loses every digit; Welford's update and the compensated sum
    /// keep them.
    @Test func varianceAndSumStayExactFarFromZero() throws {
        var statistics = try GroupedStatistics(
            statistics: [StatisticDefinition(type: .var, field: "v", name: "var"), StatisticDefinition(type: .sum, field: "w", name: "sum")],
            groupBy: [], layer: "L")
        try statistics.add([.double(1e12 + 1), .double(1e16)])
        try statistics.add([.double(1e12 + 3), .double(1)])
        try statistics.add([.null, .double(-1e16)])
        let row = try statistics.rows(orderBy: []).first
        #expect(Self.value(row, "var") == .double(2))
        #expect(Self.value(row, "sum") == .double(1))
    }

    @Test func aSingleValueHasNoSampleDeviationAndNullsAreSkipped() throws {
        var statistics = try GroupedStatistics(
            statistics: [
                StatisticDefinition(type: .stddev, field: "v", name: "sd"), StatisticDefinition(type: .var, field: "v", name: "var"),
                StatisticDefinition(type: .count, field: "v", name: "n"), StatisticDefinition(type: .min, field: "v", name: "min"),
                StatisticDefinition(type: .avg, field: "v", name: "avg"),
            ],
            groupBy: [], layer: "L")
        try statistics.add([.double(2.5)])
        try statistics.add([.null])
        try statistics.add([])
        let row = try statistics.rows(orderBy: []).first
        #expect(Self.value(row, "sd") == .null)
        #expect(Self.value(row, "var") == .null)
        #expect(Self.value(row, "n") == .integer(1))
        #expect(Self.value(row, "min") == .double(2.5))
        #expect(Self.value(row, "avg") == .double(2.5))
        #expect(statistics.recordCount == 3)
    }

    @Test func anEmptySelectionWithoutGroupByIsOneRowAndWithGroupByNone() throws {
        let definitions = [StatisticDefinition(type: .count, field: "v", name: "n"), StatisticDefinition(type: .sum, field: "v", name: "s")]
        let ungrouped = try GroupedStatistics(statistics: definitions, groupBy: [], layer: "L")
        #expect(try ungrouped.rows(orderBy: []) == [StatisticsRow(group: [], values: [NamedValue("n", .integer(0)), NamedValue("s", .null)])])
        let grouped = try GroupedStatistics(statistics: definitions, groupBy: ["g"], layer: "L")
        #expect(try grouped.rows(orderBy: []).isEmpty)
    }

    @Test func nullIsItsOwnGroupAndSortsLast() throws {
        var statistics = try GroupedStatistics(
            statistics: [StatisticDefinition(type: .count, field: "v", name: "n"), StatisticDefinition(type: .max, field: "v", name: "top")],
            groupBy: ["g"], layer: "L")
        #expect(statistics.fields == ["g", "v"])
        let records: [[AttributeValue]] = [
            [.string("b"), .integer(1)], [.null, .integer(5)], [.string("a"), .null], [.string("b"), .integer(4)], [.null, .integer(2)],
        ]
        for record in records { try statistics.add(record) }
        let rows = try statistics.rows(orderBy: [])
        #expect(rows.map(\.group) == [[NamedValue("g", .string("a"))], [NamedValue("g", .string("b"))], [NamedValue("g", .null)]])
        #expect(rows.map { Self.value($0, "n") } == [.integer(0), .integer(2), .integer(2)])
        #expect(rows.map { Self.value($0, "top") } == [.null, .integer(4), .integer(5)])
        let byTopDescending = try statistics.rows(orderBy: [OrderTerm(field: "top", descending: true)])
        #expect(byTopDescending.map { Self.value($0, "top") } == [.null, .integer(5), .integer(4)])
        let byGroupDescending = try statistics.rows(orderBy: [OrderTerm(field: "g", descending: true)])
        #expect(byGroupDescending.map { $0.group.first?.value } == [.null, .string("b"), .string("a")])
    }

    @Test func groupKeysCompareAsSQLAndFieldsAreSharedWithGroupFields() throws {
        var statistics = try GroupedStatistics(
            statistics: [StatisticDefinition(type: .count, field: "g", name: "n"), StatisticDefinition(type: .sum, field: "v", name: "s")],
            groupBy: ["g"], layer: "L")
        #expect(statistics.fields == ["g", "v"])
        try statistics.add([.integer(1), .integer(10)])
        try statistics.add([.double(1.0), .integer(20)])
        let rows = try statistics.rows(orderBy: [])
        #expect(rows.count == 1)
        #expect(Self.value(rows.first, "s") == .integer(30))
        #expect(Self.value(rows.first, "n") == .integer(2))
    }

    @Test func sumsKeepIntegersUntilOverflowOrADouble() throws {
        var overflowing = try GroupedStatistics(statistics: [StatisticDefinition(type: .sum, field: "v", name: "s")], groupBy: [], layer: "L")
        try overflowing.add([.integer(.max)])
        try overflowing.add([.integer(.max)])
        #expect(try Self.value(overflowing.rows(orderBy: []).first, "s") == .double(2 * 9_223_372_036_854_775_807.0))
        var mixed = try GroupedStatistics(statistics: [StatisticDefinition(type: .sum, field: "v", name: "s")], groupBy: [], layer: "L")
        try mixed.add([.integer(1)])
        try mixed.add([.double(0.5)])
        #expect(try Self.value(mixed.rows(orderBy: []).first, "s") == .double(1.5))
    }

    @Test func minAndMaxKeepStringsAndDates() throws {
        var statistics = try GroupedStatistics(
            statistics: [StatisticDefinition(type: .min, field: "s", name: "first"), StatisticDefinition(type: .max, field: "d", name: "last")],
            groupBy: [], layer: "L")
        try statistics.add([.string("b"), .date(100)])
        try statistics.add([.string("B"), .date(300)])
        try statistics.add([.null, .date(200)])
        let row = try statistics.rows(orderBy: []).first
        #expect(Self.value(row, "first") == .string("B"))
        #expect(Self.value(row, "last") == .date(300))
    }

    @Test func arithmeticOnADateIsRefusedButMinIsNot() throws {
        var statistics = try GroupedStatistics(
            statistics: [StatisticDefinition(type: .min, field: "d", name: "first"), StatisticDefinition(type: .percentileCont, field: "d", name: "p", percentile: 0.5)],
            groupBy: [], layer: "L")
        let error = #expect(throws: FeatureServiceError.self) { try statistics.add([.date(5)]) }
        #expect(error?.message.contains("date") == true)
        #expect(error?.message.contains("'p'") == true)
        #expect(statistics.recordCount == 0)
    }

    @Test func arithmeticOnAStringIsTheRequestsError() throws {
        var statistics = try GroupedStatistics(statistics: [StatisticDefinition(type: .avg, field: "NAME", name: "mean")], groupBy: [], layer: "L")
        try statistics.add([.integer(1)])
        let error = #expect(throws: FeatureServiceError.self) { try statistics.add([.string("x")]) }
        #expect(error?.code == .invalidQuery)
        #expect(error?.message.contains("'NAME'") == true)
        #expect(error?.message.contains("string") == true)
        #expect(error?.layer == "L")
    }

    @Test(arguments: [
        ([], [String]()),
        (Array(repeating: StatisticDefinition(type: .count, field: "v", name: "n"), count: 1), Array(repeating: "g", count: 9)),
        ([StatisticDefinition(type: .percentileCont, field: "v", name: "p")], []),
        ([StatisticDefinition(type: .percentileCont, field: "v", name: "p", percentile: 1)], []),
        ([StatisticDefinition(type: .percentileDisc, field: "v", name: "p", percentile: 0)], []),
        ([StatisticDefinition(type: .count, field: "v", name: "p", percentile: 0.5)], []),
        ([StatisticDefinition(type: .count, field: "v", name: "n"), StatisticDefinition(type: .sum, field: "v", name: "n")], []),
        ([StatisticDefinition(type: .count, field: "v", name: "g")], ["g"]),
        ([StatisticDefinition(type: .count, field: "", name: "n")], []),
        ([StatisticDefinition(type: .count, field: "v", name: "n")], ["g", "g"]),
    ])
    func invalidRequestsAreRefused(statistics: [StatisticDefinition], groupBy: [String]) {
        let error = #expect(throws: FeatureServiceError.self) { try GroupedStatistics(statistics: statistics, groupBy: groupBy, layer: "L") }
        #expect(error?.code == .invalidQuery)
    }

    @Test func thirtyTwoStatisticsAreAllowedAndThirtyThreeAreNot() throws {
        let definitions = (0..<33).map { StatisticDefinition(type: .count, field: "v", name: "n\($0)") }
        #expect(throws: Never.self) { try GroupedStatistics(statistics: Array(definitions.prefix(32)), groupBy: [], layer: "L") }
        #expect(throws: FeatureServiceError.self) { try GroupedStatistics(statistics: definitions, groupBy: [], layer: "L") }
    }

    @Test func orderByMustNameAGroupFieldOrAStatistic() throws {
        let statistics = try GroupedStatistics(statistics: [StatisticDefinition(type: .count, field: "v", name: "n")], groupBy: ["g"], layer: "L")
        let error = #expect(throws: FeatureServiceError.self) { try statistics.rows(orderBy: [OrderTerm(field: "v")]) }
        #expect(error?.message.contains("'v'") == true)
    }
}
