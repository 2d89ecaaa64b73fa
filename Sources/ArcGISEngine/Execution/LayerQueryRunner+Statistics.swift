import EngineExecution
import FeatureQuerySupport
import FeatureService
import Logging
import QueryLanguage

extension LayerQueryRunner {
    /// `result: statistics`: asked of the service when the layer says it can (`supportsStatistics`, and
    /// `supportsPercentileStatistics` for percentiles) and its answer can be trusted, else computed by the
    /// worker from the complete selection. A service that claims statistics and fails ("Cannot complete
    /// operation"), or cuts grouped rows at its record limit without paging them, is answered by the worker.
    func runStatistics(_ base: QueryParameters) async throws -> ServiceLayerResult {
        async let selected = fetchCount(base)
        if let rows = try await serverStatistics(base) {
            let (ordered, site) = orderedStatistics(rows.rows, serverOrdered: rows.serverOrdered)
            return aggregated(count: try await selected, selection: .statistics(ordered), by: .server, orderedBy: site)
        }
        var sink = StatisticsSink(try GroupedStatistics(statistics: query.statistics, groupBy: query.groupBy, layer: layer.url), budget: budget, layer: layer.url)
        let read = try await readRecords(base, columns: columns(sink.statistics.fields), geometry: false, into: &sink)
        let rows = try sink.statistics.rows(orderBy: query.orderBy)
        return aggregated(count: read, selection: .statistics(rows), by: .worker, orderedBy: query.orderBy.isEmpty ? nil : .worker)
    }

    /// The service's statistics rows, and whether it ordered them; nil when the worker computes instead.
    private func serverStatistics(_ base: QueryParameters) async throws -> (rows: [StatisticsRow], serverOrdered: Bool)? {
        let capabilities = layer.queryCapabilities
        guard capabilities.statistics else { return nil }
        if query.statistics.contains(where: { $0.type.isPercentile }), !capabilities.percentileStatistics { return nil }
        let serverOrders = !query.orderBy.isEmpty && capabilities.orderBy
        var parameters = base
        parameters.append("outStatistics", Self.outStatistics(query.statistics))
        if !query.groupBy.isEmpty { parameters.append("groupByFieldsForStatistics", query.groupBy.joined(separator: ",")) }
        if serverOrders {
            parameters.append("orderByFields", Self.orderByFields(query.orderBy))
        } else if !query.groupBy.isEmpty, capabilities.orderBy {
            // Groups in a stable order, so that pages of them (when the service pages them) neither repeat nor skip.
            parameters.append("orderByFields", Self.orderByFields(query.groupBy.map { OrderTerm(field: $0) }))
        }
        parameters.append("returnGeometry", "false")
        guard let pages = try await aggregatedPages(parameters, what: "statistics") else { return nil }
        let groupColumns = columns(query.groupBy)
        let valueColumns = AttributeColumns(
            names: query.statistics.map(\.name),
            types: query.statistics.map { statistic in
                switch statistic.type {
                case .min, .max, .percentileDisc: layer.field(named: statistic.field)?.type
                case .count, .sum, .avg, .stddev, .var, .percentileCont: nil
                }
            })
        var rows: [StatisticsRow] = []
        for page in pages {
            for row in page.rows {
                let group = groupColumns.record(row)
                var values = valueColumns.record(row)
                for (index, statistic) in query.statistics.enumerated() {
                    values[index] = Self.typed(values[index], statistic.type)
                }
                rows.append(StatisticsRow(
                    group: zip(query.groupBy, group).map { NamedValue($0, $1) },
                    values: zip(query.statistics.map(\.name), values).map { NamedValue($0, $1) }))
            }
        }
        return (rows, serverOrders)
    }

    /// Rows in the query's order (without one, by group ascending, as the worker's own rows come).
    private func orderedStatistics(_ rows: [StatisticsRow], serverOrdered: Bool) -> ([StatisticsRow], ComputationSite?) {
        inQueryOrder(
            rows, terms: query.orderBy.isEmpty ? query.groupBy.map { OrderTerm(field: $0) } : query.orderBy,
            serverOrdered: serverOrdered,
            outOfOrder: "the service returned statistics out of the order it was asked for; sorted by the worker",
            value: Self.value(of:_:))
    }

    private static func value(of row: StatisticsRow, _ field: String) -> AttributeValue {
        if let group = row.group.first(where: { $0.name.caseInsensitiveEquals(field) }) { return group.value }
        return row.values.first { $0.name.caseInsensitiveEquals(field) }?.value ?? .null
    }

    /// A statistic's value in the type the worker gives it: averages, deviations and interpolated percentiles
    /// are doubles even when the service wrote an integral number.
    private static func typed(_ value: AttributeValue, _ type: StatisticType) -> AttributeValue {
        switch (type, value) {
        case (.avg, .integer(let number)), (.stddev, .integer(let number)), (.var, .integer(let number)),
            (.percentileCont, .integer(let number)):
            .double(Double(number))
        default: value
        }
    }

    /// `outStatistics` as ArcGIS reads it; percentiles in upper case with `statisticParameters`, as the
    /// Feature Service reference writes them.
    static func outStatistics(_ statistics: [StatisticDefinition]) -> String {
        var writer = JSONWriter(capacity: 96 * statistics.count)
        writer.raw("[")
        for (index, statistic) in statistics.enumerated() {
            if index > 0 { writer.comma() }
            writer.raw("{")
            writer.key("statisticType")
            switch statistic.type {
            case .percentileCont: writer.string("PERCENTILE_CONT")
            case .percentileDisc: writer.string("PERCENTILE_DISC")
            default: writer.string(statistic.type.rawValue)
            }
            writer.comma()
            writer.key("onStatisticField")
            writer.string(statistic.field)
            writer.comma()
            writer.key("outStatisticFieldName")
            writer.string(statistic.name)
            if let percentile = statistic.percentile, statistic.type.isPercentile {
                writer.comma()
                writer.key("statisticParameters")
                writer.raw("{")
                writer.key("value")
                writer.number(percentile)
                writer.raw("}")
            }
            writer.raw("}")
        }
        writer.raw("]")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// `orderByFields`: `F ASC, G DESC`.
    static func orderByFields(_ terms: [OrderTerm]) -> String {
        terms.map { "\($0.field) \($0.descending ? "DESC" : "ASC")" }.joined(separator: ", ")
    }

    /// Records' columns for `names`, typed by the layer's fields.
    func columns(_ names: [String]) -> AttributeColumns {
        AttributeColumns(names: names, types: names.map { layer.field(named: $0)?.type })
    }

    func aggregated(count: Int, selection: LayerSelection, by site: ComputationSite?, orderedBy: ComputationSite?) -> ServiceLayerResult {
        ServiceLayerResult(
            url: layer.url, layerId: layer.id, name: layer.name, objectIdField: layer.objectIdField, count: count,
            isComplete: true, selection: selection, requests: counter.requestCount, retries: counter.retryCount,
            aggregatedBy: site, orderedBy: orderedBy)
    }
}

/// The worker's statistics as a ``RecordSink``, bounded by the request's result budget: percentiles hold their
/// values (16 bytes each, as reserved here), everything else only its groups.
struct StatisticsSink: RecordSink {
    private(set) var statistics: GroupedStatistics
    private let initial: GroupedStatistics
    private var held: HeldReservation
    private let layer: String

    init(_ statistics: GroupedStatistics, budget: ResultBudget, layer: String) {
        self.statistics = statistics
        self.initial = statistics
        self.held = HeldReservation(budget: budget, unit: 16, layer: layer)
        self.layer = layer
    }

    mutating func add(_ records: [[AttributeValue]], page: AttributePage) throws {
        for record in records { try statistics.add(record) }
        try held.hold(statistics.heldValues) { [layer] in
            "percentiles over \(layer) hold \($0) values, more than the request's result budget; narrow "
                + "the selection or ask for other statistics"
        }
    }

    mutating func reset() throws {
        statistics = initial
    }
}
