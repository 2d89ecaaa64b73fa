package import QueryLanguage

/// A time window of a query (`query.time`): features whose time (an ArcGIS layer's `timeInfo` fields, an OGC
/// collection's temporal property) falls in it. Bounds are UTC epoch milliseconds, as ArcGIS date fields hold
/// them; `nil` is an open end. Both equal: an instant.
package struct TimeWindow: Sendable, Hashable {
    package var start: Int64?
    package var end: Int64?

    package init(start: Int64?, end: Int64?) {
        self.start = start
        self.end = end
    }

    /// Both bounds given and equal.
    package var isInstant: Bool { start != nil && start == end }
}

/// One entry of `query.orderBy`: a field and its direction. Ties after the last entry are broken by object id
/// ascending; nulls sort as PostgreSQL sorts them (last ascending, first descending).
package struct OrderTerm: Sendable, Hashable {
    package var field: String
    package var descending: Bool

    package init(field: String, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }
}

/// What one statistic computes, with SQL's meaning (PostgreSQL's aggregates are the ground truth): nulls are
/// skipped, `count` counts non-null values, `stddev` and `var` are the sample forms (n − 1, null for one
/// value), the percentiles are `percentile_cont` and `percentile_disc`.
package enum StatisticType: String, Sendable, Hashable, CaseIterable {
    case count, sum, min, max, avg, stddev, `var`, percentileCont, percentileDisc

    /// Whether the statistic needs a `percentile`.
    package var isPercentile: Bool { self == .percentileCont || self == .percentileDisc }
}

/// One entry of `query.statistics`: `type` over `field`, answered under `name`.
package struct StatisticDefinition: Sendable, Hashable {
    package var type: StatisticType
    package var field: String
    package var name: String
    /// For the percentiles: 0 < p < 1; `nil` otherwise.
    package var percentile: Double?

    package init(type: StatisticType, field: String, name: String, percentile: Double? = nil) {
        self.type = type
        self.field = field
        self.name = name
        self.percentile = percentile
    }
}

/// Which side computed a statistic, a distinct list or an order: the service, or the worker from the complete
/// selection (the service could not, said it could not, or answered what could not be trusted).
package enum ComputationSite: String, Sendable, Hashable {
    case server
    case worker
}

/// A field's name and value in a result row (a group, a statistics row, a distinct combination). A list of
/// these keeps the order the request named the fields in.
package struct NamedValue: Sendable, Hashable {
    package var name: String
    package var value: AttributeValue

    package init(_ name: String, _ value: AttributeValue) {
        self.name = name
        self.value = value
    }
}

/// One group of a statistics answer: the group fields' values (empty without `groupBy`) and each statistic's
/// value by its name.
package struct StatisticsRow: Sendable, Hashable {
    package var group: [NamedValue]
    package var values: [NamedValue]

    package init(group: [NamedValue], values: [NamedValue]) {
        self.group = group
        self.values = values
    }
}
