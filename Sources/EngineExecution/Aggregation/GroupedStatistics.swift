package import FeatureService
package import QueryLanguage

/// `result: statistics` computed by the worker from the complete selection, fed one record at a time, with
/// PostgreSQL's aggregate semantics (the test oracle): nulls skipped, `count` of non-null values, `sum` of
/// integers an integer, `avg` a double, `stddev`/`var` the sample forms, `percentile_cont`/`percentile_disc`.
///
/// Records are `[AttributeValue]` in ``fields`` order (a shorter record reads null for its missing columns, as
/// a GeoJSON feature without a property has none). Memory grows with the number of groups, not features; only
/// percentiles hold their values (``heldValues``), so the caller can stop at its result budget.
package struct GroupedStatistics: Sendable {
    private struct Group: Sendable {
        var values: [AttributeValue]
        var summaries: [FieldSummary]
    }

    package let statistics: [StatisticDefinition]
    package let groupBy: [String]
    /// The columns a record carries: the group fields, then each statistic field not already among them, once.
    package let fields: [String]
    /// The layer errors name.
    package let layer: String
    /// Per statistic, its field's summary.
    private let summaryOfStatistic: [Int]
    /// Per summary, its record column and the first statistic that needs numbers from it.
    private let columnOfSummary: [Int]
    private let numericStatisticOfSummary: [StatisticDefinition?]
    private let summaryKeepsValues: [Bool]
    private var groupIndex: [[AttributeKey]: Int] = [:]
    private var groups: [Group] = []
    /// Values held for percentiles, over every group: what the caller bounds by its result budget.
    package private(set) var heldValues = 0
    /// Records added.
    package private(set) var recordCount = 0

    /// Validates the request (``GroupedStatistics/validate(statistics:groupBy:layer:)``) and lays out columns.
    package init(statistics: [StatisticDefinition], groupBy: [String], layer: String) throws(FeatureServiceError) {
        try Self.validate(statistics: statistics, groupBy: groupBy, layer: layer)
        self.statistics = statistics
        self.groupBy = groupBy
        self.layer = layer
        var fields = groupBy
        var summaryFields: [String] = []
        var numeric: [StatisticDefinition?] = []
        var keepsValues: [Bool] = []
        var summaryOfStatistic: [Int] = []
        for statistic in statistics {
            let summary = summaryFields.firstIndex(of: statistic.field) ?? {
                summaryFields.append(statistic.field)
                numeric.append(nil)
                keepsValues.append(false)
                return summaryFields.count - 1
            }()
            summaryOfStatistic.append(summary)
            if statistic.type.needsNumbers, numeric[summary] == nil { numeric[summary] = statistic }
            if statistic.type.isPercentile { keepsValues[summary] = true }
            if !fields.contains(statistic.field) { fields.append(statistic.field) }
        }
        self.fields = fields
        self.summaryOfStatistic = summaryOfStatistic
        self.columnOfSummary = summaryFields.map { field in fields.firstIndex(of: field) ?? 0 }
        self.numericStatisticOfSummary = numeric
        self.summaryKeepsValues = keepsValues
    }

    /// Adds one record of the selection. A string or date where a statistic needs numbers is the request's
    /// error (`invalid_query`), naming the statistic, the field and what it met.
    package mutating func add(_ record: [AttributeValue]) throws(FeatureServiceError) {
        for (summary, column) in columnOfSummary.enumerated() {
            guard let statistic = numericStatisticOfSummary[summary] else { continue }
            let value = column < record.count ? record[column] : .null
            switch value {
            case .string, .date:
                throw FeatureServiceError(
                    .invalidQuery,
                    "\(layer): statistic '\(statistic.name)' (\(statistic.type.rawValue)) needs a numeric field, but "
                        + "'\(statistic.field)' holds a \(Self.kindName(value)) value; use count, min or max on it",
                    layer: layer)
            case .null, .integer, .double: continue
            }
        }
        let groupValues = groupBy.indices.map { $0 < record.count ? record[$0] : AttributeValue.null }
        let key = groupValues.map(AttributeKey.init)
        let index: Int
        if let existing = groupIndex[key] {
            index = existing
        } else {
            index = groups.count
            groupIndex[key] = index
            groups.append(Group(values: groupValues, summaries: summaryKeepsValues.map(FieldSummary.init(keepsValues:))))
        }
        recordCount += 1
        for (summary, column) in columnOfSummary.enumerated() {
            let value = column < record.count ? record[column] : .null
            groups[index].summaries[summary].add(value)
            if summaryKeepsValues[summary], !value.isNullValue { heldValues += 1 }
        }
    }

    /// The answer: one row per group (without `groupBy`, exactly one row with an empty group even for an empty
    /// selection, as SQL's aggregate without `GROUP BY`; with `groupBy` and nothing added, no rows). `orderBy`
    /// may name group fields and statistic names; ties, and the default order, are by the group values
    /// ascending, nulls last.
    package func rows(orderBy: [OrderTerm]) throws(FeatureServiceError) -> [StatisticsRow] {
        let statisticNames = statistics.map(\.name)
        for term in orderBy where !groupBy.contains(term.field) && !statisticNames.contains(term.field) {
            throw FeatureServiceError(
                .invalidQuery,
                "\(layer): orderBy names '\(term.field)', which is neither a groupBy field (\(groupBy.joined(separator: ", "))) "
                    + "nor a statistic name (\(statisticNames.joined(separator: ", ")))",
                layer: layer)
        }
        var answered = groups
        if groupBy.isEmpty, answered.isEmpty {
            answered = [Group(values: [], summaries: summaryKeepsValues.map(FieldSummary.init(keepsValues:)))]
        }
        let rows = answered.map(row)
        let order = AttributeOrder(orderBy)
        let groupOrder = AttributeOrder(groupBy.map { OrderTerm(field: $0) })
        let keys = rows.map { row in
            orderBy.map { term in
                (row.group.first { $0.name == term.field } ?? row.values.first { $0.name == term.field })?.value ?? .null
            }
        }
        let sorted = rows.indices.sorted { a, b in
            let result = order.compare(keys[a], keys[b])
            if result != 0 { return result < 0 }
            return groupOrder.compare(rows[a].group.map(\.value), rows[b].group.map(\.value)) < 0
        }
        return sorted.map { rows[$0] }
    }

    private func row(_ group: Group) -> StatisticsRow {
        var sortedValues: [Int: [AttributeValue]] = [:]
        let values = statistics.enumerated().map { index, statistic in
            let summary = group.summaries[summaryOfStatistic[index]]
            let value: AttributeValue
            switch statistic.type {
            case .count: value = .integer(Int64(summary.count))
            case .sum: value = summary.sum
            case .min: value = summary.minimum
            case .max: value = summary.maximum
            case .avg: value = summary.average
            case .stddev: value = summary.sampleStandardDeviation
            case .var: value = summary.sampleVariance
            case .percentileCont, .percentileDisc:
                let held = sortedValues[summaryOfStatistic[index]]
                    ?? (summary.values ?? []).sorted { AttributeOrder.compare($0, $1) < 0 }
                sortedValues[summaryOfStatistic[index]] = held
                let p = statistic.percentile ?? 0.5
                value = statistic.type == .percentileCont
                    ? Percentiles.continuous(p, sorted: held) : Percentiles.discrete(p, sorted: held)
            }
            return NamedValue(statistic.name, value)
        }
        return StatisticsRow(group: zip(groupBy, group.values).map { NamedValue($0, $1) }, values: values)
    }

    static func kindName(_ value: AttributeValue) -> String {
        switch value {
        case .null: "null"
        case .integer: "integer"
        case .double: "double"
        case .string: "string"
        case .date: "date"
        }
    }
}

extension AttributeValue {
    /// Whether this is SQL's null (QueryLanguage's own `isNull` is internal to it).
    var isNullValue: Bool {
        if case .null = self { return true }
        return false
    }
}
