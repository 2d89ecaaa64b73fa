import EngineExecution
import FeatureService
import Logging
import QueryLanguage

extension LayerQueryRunner {
    /// `result: distinct`: the distinct combinations of `outFields`, from `returnDistinctValues` where the layer
    /// says `supportsDistinct` and the answer is whole, else computed by the worker from the selection.
    func runDistinct(_ base: QueryParameters) async throws -> ServiceLayerResult {
        async let selected = fetchCount(base)
        let fields = query.outFields
        if layer.queryCapabilities.distinct, let (rows, serverOrdered) = try await serverDistinct(base, fields: fields) {
            let (ordered, site) = inQueryOrder(
                rows, terms: query.orderBy.isEmpty ? fields.map { OrderTerm(field: $0) } : query.orderBy,
                serverOrdered: serverOrdered,
                outOfOrder: "the service returned distinct values out of the order it was asked for; sorted by the worker"
            ) { row, field in row.first { $0.name.caseInsensitiveEquals(field) }?.value ?? .null }
            return aggregated(count: try await selected, selection: .distinct(ordered), by: .server, orderedBy: site)
        }
        var sink = DistinctSink(rows: try DistinctRows(fields: fields, layer: layer.url), budget: budget, layer: layer.url)
        let read = try await readRecords(base, columns: columns(fields), geometry: false, into: &sink)
        let rows = try sink.rows.rows(orderBy: query.orderBy)
        return aggregated(count: read, selection: .distinct(rows), by: .worker, orderedBy: query.orderBy.isEmpty ? nil : .worker)
    }

    private func serverDistinct(_ base: QueryParameters, fields: [String]) async throws -> ([[NamedValue]], Bool)? {
        var parameters = base
        parameters.append("returnDistinctValues", "true")
        parameters.append("outFields", fields.joined(separator: ","))
        parameters.append("returnGeometry", "false")
        let serverOrders = layer.queryCapabilities.orderBy
        if serverOrders {
            let terms = query.orderBy.isEmpty ? fields.map { OrderTerm(field: $0) } : query.orderBy
            parameters.append("orderByFields", Self.orderByFields(terms))
        }
        guard let pages = try await aggregatedPages(parameters, what: "distinct values") else { return nil }
        let columns = columns(fields)
        var rows: [[NamedValue]] = []
        for page in pages {
            for row in page.rows { rows.append(zip(fields, columns.record(row)).map { NamedValue($0, $1) }) }
        }
        return (rows, serverOrders)
    }
}

/// The worker's distinct values as a ``RecordSink``; each combination kept is reserved from the result budget
/// (64 bytes a value, an estimate of what it takes held and published).
struct DistinctSink: RecordSink {
    private(set) var rows: DistinctRows
    private let initial: DistinctRows
    private var held: HeldReservation
    private let layer: String

    init(rows: DistinctRows, budget: ResultBudget, layer: String) {
        self.rows = rows
        self.initial = rows
        self.held = HeldReservation(budget: budget, unit: 64, layer: layer)
        self.layer = layer
    }

    mutating func add(_ records: [[AttributeValue]], page: AttributePage) throws {
        for record in records { rows.add(record) }
        try held.hold(rows.count) { [layer] in
            "\(layer) has more distinct combinations (\($0) so far) than the request's result budget holds; "
                + "name fewer outFields or narrow the selection"
        }
    }

    mutating func reset() throws {
        rows = initial
    }
}
