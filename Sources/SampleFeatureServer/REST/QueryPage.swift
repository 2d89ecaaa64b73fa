/// Which part of a selection a query returns, and whether more remains (`exceededTransferLimit`).
struct QueryPage: Sendable {
    let range: Range<Int>
    let exceededTransferLimit: Bool
    /// Whether to write `exceededTransferLimit` even when false (ArcGIS does when the client paginates).
    let reportLimit: Bool

    /// Paginating layers return `min(resultRecordCount ?? maxRecordCount, maxRecordCount)` features from
    /// `resultOffset`; others the first maxRecordCount. `shortPageCap` (a fault) trims pages further.
    /// The flag is true exactly when matches remain beyond the returned ones, unless a quirk says otherwise:
    /// `short-pages` halves pages and keeps the flag true on the last non-empty page, `shuffled-pages` serves
    /// the pages of a paging client in reverse sequence.
    init(
        total: Int, request: LayerQueryParameters, layer: LayerDefinition, shortPageCap: Int?,
        options: LayerQueryOptions = LayerQueryOptions()
    ) {
        let offset = layer.supportsPagination ? min(request.offset ?? 0, total) : 0
        var size = layer.maxRecordCount
        if layer.supportsPagination, let asked = request.recordCount { size = min(asked, size) }
        if let shortPageCap { size = min(size, max(1, shortPageCap)) }
        if options.has(.shortPages) { size = max(1, (size + 1) / 2) }
        let end = min(total, offset + size)
        range = Self.served(offset..<end, total: total, size: size, request: request, options: options)
        exceededTransferLimit = end < total || (options.has(.shortPages) && request.pagingRequested && end > offset)
        reportLimit = request.pagingRequested || exceededTransferLimit
    }

    /// A page of rows made from many features (grouped statistics, distinct values): paged like features
    /// when the layer supports pagination on aggregated queries, otherwise cut at maxRecordCount.
    init(aggregateTotal total: Int, request: LayerQueryParameters, layer: LayerDefinition, options: LayerQueryOptions) {
        var offset = 0
        // Ungrouped statistics are one row whatever the paging parameters say.
        var size = request.isAggregated ? layer.maxRecordCount : max(total, 1)
        if request.isAggregated, options.supportsPaginationOnAggregatedQueries, layer.supportsPagination {
            offset = min(request.offset ?? 0, total)
            if let asked = request.recordCount { size = min(asked, size) }
        }
        let end = min(total, offset + size)
        range = offset..<end
        exceededTransferLimit = end < total
        reportLimit = request.pagingRequested || exceededTransferLimit
    }

    /// The `shuffled-pages` quirk: page p of n (at a whole-page offset) is served as page n−1−p.
    private static func served(
        _ range: Range<Int>, total: Int, size: Int, request: LayerQueryParameters, options: LayerQueryOptions
    ) -> Range<Int> {
        guard options.has(.shuffledPages), request.pagingRequested, !range.isEmpty, range.lowerBound % size == 0 else { return range }
        let pages = (total + size - 1) / size
        let page = pages - 1 - range.lowerBound / size
        return (page * size)..<min(total, page * size + size)
    }
}
