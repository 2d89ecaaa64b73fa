package import FeatureService

extension StatisticType {
    /// Whether the statistic is arithmetic (sum, avg, stddev, var, the percentiles): strings and dates are
    /// refused; count, min and max take any value.
    package var needsNumbers: Bool {
        switch self {
        case .count, .min, .max: false
        case .sum, .avg, .stddev, .var, .percentileCont, .percentileDisc: true
        }
    }
}

extension GroupedStatistics {
    /// At most this many statistics in one request (ArcGIS services accept more, but a worker-side answer holds
    /// a summary per statistic field per group).
    package static let maximumStatistics = 32
    /// At most this many group fields.
    package static let maximumGroupFields = 8

    /// Refuses what no statistics answer can mean, with a message that says what to change: 1–32 statistics
    /// with non-empty fields and distinct names that are not group fields, 0–8 distinct group fields, and a
    /// percentile strictly between 0 and 1 on the percentile statistics and on no other.
    package static func validate(statistics: [StatisticDefinition], groupBy: [String], layer: String) throws(FeatureServiceError) {
        func refuse(_ message: String) -> FeatureServiceError {
            FeatureServiceError(.invalidQuery, "\(layer): \(message)", layer: layer)
        }
        guard (1...maximumStatistics).contains(statistics.count) else {
            throw refuse("a statistics query needs 1 to \(maximumStatistics) statistics, not \(statistics.count)")
        }
        guard groupBy.count <= maximumGroupFields else {
            throw refuse("groupBy names \(groupBy.count) fields; at most \(maximumGroupFields) are allowed")
        }
        if let empty = groupBy.firstIndex(where: \.isEmpty) {
            throw refuse("groupBy field \(empty + 1) is empty; name a field")
        }
        if let repeated = groupBy.enumerated().first(where: { groupBy[..<$0.offset].contains($0.element) }) {
            throw refuse("groupBy names '\(repeated.element)' twice; name each field once")
        }
        var names: Set<String> = []
        for statistic in statistics {
            let label = "statistic '\(statistic.name)' (\(statistic.type.rawValue))"
            guard !statistic.name.isEmpty else { throw refuse("a \(statistic.type.rawValue) statistic has no name; give it one") }
            guard !statistic.field.isEmpty else { throw refuse("\(label) names no field; give it one") }
            guard names.insert(statistic.name).inserted else {
                throw refuse("two statistics are named '\(statistic.name)'; give each its own name")
            }
            guard !groupBy.contains(statistic.name) else {
                throw refuse("\(label) has the name of a groupBy field; rename it so orderBy and rows can tell them apart")
            }
            if statistic.type.isPercentile {
                guard let p = statistic.percentile, p > 0, p < 1 else {
                    throw refuse("\(label) needs a percentile strictly between 0 and 1, not \(statistic.percentile.map { String($0) } ?? "none")")
                }
            } else if let p = statistic.percentile {
                throw refuse("\(label) takes no percentile (given \(p)); only percentileCont and percentileDisc do")
            }
        }
    }
}
