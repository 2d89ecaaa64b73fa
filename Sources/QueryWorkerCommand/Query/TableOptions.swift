import ArgumentParser
import FeatureQueryClient
import FeatureService

/// `query`'s flags for feature-table queries (contract 1.2): statistics, grouping, order, a time window and
/// object ids. A flag of their own each, so that a dashboard's question can be asked from a shell as a
/// producer would ask it; the worker's decoder checks the combination before anything is published.
struct TableOptions: ParsableArguments {
    @Option(
        name: .customLong("statistic"),
        help: ArgumentHelp(
            "With --result statistics: TYPE:FIELD[:NAME][:P], TYPE one of count, sum, min, max, avg, stddev, var, "
                + "percentileCont, percentileDisc (these two with P, 0 < P < 1). Repeatable.",
            valueName: "statistic"),
        transform: StatisticArgument.parse)
    var statistics: [StatisticArgument] = []

    @Option(
        name: .customLong("group-by"),
        help: ArgumentHelp("With --result statistics: fields to group by (repeatable, or a comma list).", valueName: "fields"),
        transform: FieldList.parse)
    var groupBy: [FieldList] = []

    @Option(
        name: .customLong("order-by"),
        help: ArgumentHelp(
            "FIELD[:desc]: the order of ids, features or statistics rows (a group field or a statistic's name). "
                + "Repeatable; ties by object id.",
            valueName: "field"),
        transform: OrderArgument.parse)
    var orderBy: [OrderArgument] = []

    @Option(
        help: ArgumentHelp(
            "A time window START/END of RFC 3339 date-times with a zone, .. for an open end "
                + "(2025-01-01T00:00:00Z/..).",
            valueName: "window"),
        transform: TimeArgument.parse)
    var time: TimeArgument?

    @Option(
        help: ArgumentHelp("Only these object ids (OGC: feature ids), a comma list: 1,2,3.", valueName: "ids"),
        transform: ObjectIdList.parse)
    var objectIds: ObjectIdList?

    /// The group-by fields of every `--group-by`, in order.
    var groupFields: [String] { groupBy.flatMap(\.names) }

    func validate() throws {
        let fields = groupFields
        if Set(fields).count != fields.count { throw ValidationError("a --group-by field is named twice") }
        let ordered = orderBy.map(\.field)
        if Set(ordered).count != ordered.count { throw ValidationError("an --order-by field is named twice") }
    }

    /// Adds the flags' members to `query`.
    func apply(to query: inout Query) {
        query.objectIds = objectIds?.ids.map { id in
            switch id {
            case .integer(let value): Query.FeatureID.integer(value)
            case .string(let value): Query.FeatureID.string(value)
            }
        }
        query.time = time.map { Query.TimeWindow(start: $0.start, end: $0.end) }
        if !orderBy.isEmpty { query.orderBy = orderBy.map { Query.Order($0.field, descending: $0.descending) } }
        if !statistics.isEmpty {
            query.statistics = statistics.map {
                Query.Statistic($0.type.rawValue, field: $0.field, name: $0.name, percentile: $0.percentile)
            }
        }
        if !groupBy.isEmpty { query.groupBy = groupFields }
    }
}
