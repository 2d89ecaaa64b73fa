import EngineExecution
import FeatureService
import Logging
import QueryLanguage

extension LayerQueryRunner {
    /// `result: ids` with an `orderBy`: the ids in that order (ties by object id ascending), the first
    /// `maxFeatures` of them exactly, never the first pages' best.
    func runOrderedIDs(_ base: QueryParameters) async throws -> ServiceLayerResult {
        let (ids, count, site) = try await orderedIDs(base)
        if let stored = try await storedIDs(ids) {
            var answer = result(
                count: count, selection: .stored(stored),
                completeness: Completeness(expected: count, received: count, truncatedByLimit: ids.count < count))
            answer.orderedBy = site
            return answer
        }
        var kept = ids
        let affordable = budget.reserve(count: kept.count, unit: 8)
        let cutByBudget = affordable < kept.count
        if cutByBudget { kept.removeLast(kept.count - affordable) }
        var answer = result(
            count: count, selection: .objectIds(kept),
            completeness: Completeness(expected: count, received: count, truncatedByLimit: ids.count < count, truncatedByBudget: cutByBudget))
        answer.orderedBy = site
        return answer
    }

    /// `result: features` with an `orderBy`: the ordered ids first, then their features by id, in that order.
    /// With a result store, the features go through it in that order (``orderedThroughStore(_:count:site:)``).
    func runOrderedFeatures(_ base: QueryParameters) async throws -> ServiceLayerResult {
        let (ids, count, site) = try await orderedIDs(base)
        if budget.store != nil { return try await orderedThroughStore(ids, count: count, site: site) }
        let wanted = try wantedFeatures(of: ids.count)
        let selected = Array(ids.prefix(wanted))
        var collector = GeoJSONPageCollector(limit: max(query.maxFeatures ?? 0, configuration.maxFeaturesInMemory), layer: layer.url)
        var inline = storedStream(kind: .features)
        let cutByBudget = try await fetchByIDs(selected, into: &collector, stream: &inline)
        let features = collector.finish(inOrderOf: selected)
        var answer = result(
            count: count, selection: .features(features),
            completeness: Completeness(
                expected: selected.count, received: features.count, truncatedByLimit: selected.count < count,
                truncatedByBudget: cutByBudget))
        answer.orderedBy = site
        return answer
    }

    /// The selection's ids in the query's order, cut at `maxFeatures`; its count; who ordered. The service
    /// orders where it says it can (`supportsOrderBy`) and pages (offset pages of the order fields, ties by
    /// object id); its rows are checked pair by pair (PostgreSQL's order, nulls last ascending), and a service
    /// whose order does not hold is named in the log and the worker orders instead, keeping only the best
    /// `maxFeatures` while it reads the selection.
    private func orderedIDs(_ base: QueryParameters) async throws -> (ids: [Int64], count: Int, site: ComputationSite) {
        let fields = query.orderBy.map(\.field)
        let count = try await fetchCount(base)
        let wanted = min(count, query.maxFeatures ?? count)
        if layer.queryCapabilities.orderBy, layer.supportsPagination, let ids = try await serverOrderedIDs(base, fields: fields, wanted: wanted) {
            return (ids, count, .server)
        }
        var sink = OrderedIDSink(selection: OrderedSelection(orderBy: query.orderBy, limit: query.maxFeatures), keyCount: fields.count)
        _ = try await readRecords(base, columns: columns(fields + [layer.objectIdField]), geometry: false, into: &sink)
        return (sink.finish(), count, .worker)
    }

    private func serverOrderedIDs(_ base: QueryParameters, fields: [String], wanted: Int) async throws -> [Int64]? {
        var ordered = base
        ordered.append("outFields", (fields + [layer.objectIdField]).joined(separator: ","))
        ordered.append("returnGeometry", "false")
        ordered.append("orderByFields", Self.orderByFields(query.orderBy + [OrderTerm(field: layer.objectIdField)]))
        let output = ordered
        let pageSize = max(1, layer.maxRecordCount)
        var ranges = stride(from: 0, to: wanted, by: pageSize).reversed().map { ($0, min(pageSize, wanted - $0)) }
        let (layer, transport, endpoint, origin, counter, progress) = (layer, transport, endpoint, origin, counter, progress)
        let columns = columns(fields + [layer.objectIdField])
        var pages: [Int: [[AttributeValue]]] = [:]
        try await BoundedWork.run(limit: configuration.pageConcurrency, next: { ranges.popLast() }) { range in
            let parameters = output.adding([("resultOffset", String(range.0)), ("resultRecordCount", String(range.1))])
            return try await transport.fetch(endpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                body throws(FeatureServiceError) in try ArcGISResponse.attributePage(body, layer: layer.url)
            }
        } completed: { range, page in
            progress?.pageRead(features: page.rows.count, expected: wanted)
            pages[range.0] = page.rows.map(columns.record)
        }
        let records = pages.sorted { $0.key < $1.key }.flatMap(\.value).prefix(wanted)
        let order = AttributeOrder(query.orderBy)
        var ids: [Int64] = []
        ids.reserveCapacity(records.count)
        var previous: (key: ArraySlice<AttributeValue>, id: Int64)?
        var seen = Set<Int64>()
        for record in records {
            guard case .integer(let id)? = record.last, seen.insert(id).inserted else { return rejected("repeats or lacks object ids") }
            let key = record.dropLast()
            if let previous, order.compare(Array(previous.key), id: previous.id, Array(key), id: id) > 0 {
                return rejected("is not in the order asked for")
            }
            previous = (key, id)
            ids.append(id)
        }
        guard ids.count == wanted else { return rejected("holds \(ids.count) of the \(wanted) rows asked for") }
        guard let (key, id) = previous else { return ids }
        guard try await serverOrderHolds(Array(key), lastID: id, returned: ids.count) else {
            return rejected("could not be proved the first \(wanted): nulls in an order field, or rows ahead of its last one were skipped")
        }
        return ids
    }

    private func rejected(_ why: String) -> [Int64]? {
        transport.logger.warning(
            "the service's ordered pages cannot be trusted (the sequence \(why)); the worker orders the selection",
            metadata: ["layer": "\(layer.url)", "orderBy": "\(Self.orderByFields(query.orderBy))"])
        return nil
    }
}

/// The worker's order as a ``RecordSink``: records are the order fields then the object id.
struct OrderedIDSink: RecordSink {
    private(set) var selection: OrderedSelection<Int64, Int64>
    private let initial: OrderedSelection<Int64, Int64>
    private let keyCount: Int

    init(selection: OrderedSelection<Int64, Int64>, keyCount: Int) {
        self.selection = selection
        self.initial = selection
        self.keyCount = keyCount
    }

    mutating func add(_ records: [[AttributeValue]], page: AttributePage) throws {
        for record in records {
            guard record.count > keyCount, case .integer(let id) = record[keyCount] else { continue }
            selection.add(key: Array(record.prefix(keyCount)), id: id, item: id)
        }
    }

    mutating func reset() throws {
        selection = initial
    }

    /// The ids in order, the best `limit` of them.
    mutating func finish() -> [Int64] { selection.finish() }
}
