import FeatureQuerySupport
import Logging
import FeatureGeometry
import FeatureService
import QueryLanguage

extension LayerQueryRunner {
    /// Reads every feature of the selection once, as records of `columns` (and geometries when `geometry`),
    /// page by page, handing each page to `consume` and dropping it: what the worker aggregates from when the
    /// service cannot (statistics, distinct values, an extent). Memory holds the pages in flight, never the
    /// selection.
    ///
    /// Where the layer paginates and orders, pages by offset ordered by object id run in parallel, and each page's first and
    /// last id are kept: pages that overlap, or a total that is not the count, mean the service moved rows
    /// while paging, and the selection is read again by id chunks (disjoint by construction), so no row is
    /// counted twice or missed. Returns the count of features read.
    func readRecords<Sink: RecordSink>(
        _ base: QueryParameters, columns: AttributeColumns, geometry: Bool, into sink: inout Sink
    ) async throws -> Int {
        let fields = columns.names.contains { $0.caseInsensitiveEquals(layer.objectIdField) }
            ? columns.names : columns.names + [layer.objectIdField]
        var output = base
        output.append("outFields", fields.joined(separator: ","))
        output.append("returnGeometry", geometry ? "true" : "false")
        if geometry, let out = query.outSpatialReference { output.append("outSR", String(out.wkid)) }
        // Offset pages are ordered by object id (`orderByFields`): a layer that refuses an order is read by ids.
        if layer.supportsPagination, layer.queryCapabilities.orderBy, let read = try await readPaged(base, output: output, columns: columns, geometry: geometry, into: &sink) {
            return read
        }
        return try await readByIDs(base, output: output, columns: columns, geometry: geometry, into: &sink)
    }

    /// The paged read; nil, with `sink` reset, when the pages did not add up to the count or overlapped.
    private func readPaged<Sink: RecordSink>(
        _ base: QueryParameters, output: QueryParameters, columns: AttributeColumns, geometry: Bool,
        into sink: inout Sink
    ) async throws -> Int? {
        let count = try await fetchCount(base)
        var planner = PagePlanner(wanted: count, pageSize: layer.maxRecordCount, extendPastWanted: true)
        let (layer, transport, endpoint, origin, counter, progress) = (layer, transport, endpoint, origin, counter, progress)
        var spans: [PageSpan] = []
        var read = 0
        try await BoundedWork.run(limit: recordPageConcurrency(geometry: geometry), next: { planner.next() }) { range in
            let parameters = QueryParameters.page(output, objectIdField: layer.objectIdField, offset: range.offset, count: range.count)
            return try await transport.fetch(endpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                body throws(FeatureServiceError) in try ArcGISResponse.attributePage(body, layer: layer.url, geometry: geometry)
            }
        } completed: { range, page in
            planner.record(range, received: page.rows.count, exceededTransferLimit: page.exceededTransferLimit)
            let ids = page.rows.map { AttributeColumns.value($0[layer.objectIdField], type: .objectID) }
            spans.append(PageSpan(offset: range.offset, first: ids.first, last: ids.last))
            read += page.rows.count
            progress?.pageRead(features: page.rows.count, expected: count)
            try sink.add(page.rows.map(columns.record), page: page)
        }
        guard read == count, PageSpan.areDisjoint(spans) else {
            transport.logger.notice(
                "the service's pages did not add up to its count; reading the selection again by object id",
                metadata: ["layer": "\(layer.url)", "count": "\(count)", "read": "\(read)"])
            try sink.reset()
            return nil
        }
        return read
    }

    /// Reads the selection by `objectIds` chunks of its ids, in parallel.
    private func readByIDs<Sink: RecordSink>(
        _ base: QueryParameters, output: QueryParameters, columns: AttributeColumns, geometry: Bool,
        into sink: inout Sink
    ) async throws -> Int {
        let ids = try await fetchIDs(base).objectIds.sortedUnique().ids
        let chunkSize = max(1, min(configuration.objectIdChunkSize, layer.maxRecordCount))
        var chunks = stride(from: 0, to: ids.count, by: chunkSize).reversed().map { ids[$0..<min($0 + chunkSize, ids.count)] }
        let (layer, transport, endpoint, origin, counter, query, progress) = (layer, transport, endpoint, origin, counter, query, progress)
        let names = columns.names.contains { $0.caseInsensitiveEquals(layer.objectIdField) }
            ? columns.names : columns.names + [layer.objectIdField]
        var read = 0
        try await BoundedWork.run(limit: recordPageConcurrency(geometry: geometry), next: { chunks.popLast() }) { chunk in
            var parameters = QueryParameters(fields: [
                ("f", "json"), ("objectIds", chunk.map(String.init).joined(separator: ",")),
                ("outFields", names.joined(separator: ",")), ("returnGeometry", geometry ? "true" : "false"),
            ])
            if geometry, let out = query.outSpatialReference { parameters.append("outSR", String(out.wkid)) }
            return try await transport.fetch(endpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                body throws(FeatureServiceError) in try ArcGISResponse.attributePage(body, layer: layer.url, geometry: geometry)
            }
        } completed: { chunk, page in
            guard page.rows.count == chunk.count else {
                throw FeatureServiceError(
                    .serviceError,
                    "\(layer.url) answered \(page.rows.count) features for \(chunk.count) object ids; the worker "
                        + "cannot compute over a selection it cannot read whole", layer: layer.url, isRetryable: true)
            }
            read += page.rows.count
            progress?.pageRead(features: page.rows.count, expected: ids.count)
            try sink.add(page.rows.map(columns.record), page: page)
        }
        return read
    }

    /// Pages in flight while reading records: ``ArcGISEngineConfiguration/pageConcurrency`` with geometries,
    /// twice that without. The bound is for feature pages held until the result is published; a record page
    /// without geometry holds only the columns asked for (about a tenth of a feature page) and is dropped once
    /// added, so twice as many in flight hold less. The host's own limit still applies.
    func recordPageConcurrency(geometry: Bool) -> Int {
        geometry ? configuration.pageConcurrency : configuration.pageConcurrency * 2
    }
}

/// Where one offset page of object-id-ordered rows starts and ends: pages of a stable selection never
/// overlap, so the spans sorted by offset have strictly increasing ids.
struct PageSpan: Sendable, Hashable {
    var offset: Int
    var first: AttributeValue?
    var last: AttributeValue?

    /// Whether the non-empty spans, by offset, follow one another without overlapping.
    static func areDisjoint(_ spans: [PageSpan]) -> Bool {
        var previous: Int64?
        for span in spans.sorted(by: { $0.offset < $1.offset }) {
            guard case .integer(let first)? = span.first, case .integer(let last)? = span.last else { continue }
            if let previous, first <= previous { return false }
            previous = last
        }
        return true
    }
}

/// What ``LayerQueryRunner/readRecords(_:columns:geometry:into:)`` feeds: an accumulator of the worker's
/// (statistics, distinct values, an extent) that can start over when the read does.
protocol RecordSink {
    /// One page's records (in the columns' order) and the page itself (for its geometries).
    mutating func add(_ records: [[AttributeValue]], page: AttributePage) throws
    /// Forgets everything added: the selection is read again.
    mutating func reset() throws
}
