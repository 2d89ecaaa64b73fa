/// The answer of a `queryRelatedRecords`: for each origin feature asked for that has related rows matching
/// the definitionExpression, those rows in order (orderByFields, ties by related OBJECTID; else related
/// OBJECTID). Groups ascend by origin OBJECTID; origins without a row (or without a feature) form none.
struct RelatedSelection: Sendable {
    struct Group: Sendable {
        let objectID: Int
        /// Related feature indices, in answer order.
        let rows: [Int32]
        /// The position of the group's first row in the concatenation of all groups.
        let start: Int
    }

    let groups: [Group]
    /// Rows over all groups.
    let total: Int

    init(
        _ request: RelatedQueryParameters, relationship: SampleRelationship, origin: PublishedLayer, related: PublishedLayer,
        dataset: SampleDataset
    ) {
        var groups: [Group] = []
        var total = 0
        var record = request.predicate?.makeRecord() ?? []
        for objectID in request.objectIDs where objectID > 0 && origin.source.contains(objectID - 1) {
            var rows = dataset.relatedIndices(relationship, from: origin.layer, index: objectID - 1)
            if let predicate = request.predicate {
                rows = rows.filter { predicate.matches(related.source, Int($0), record: &record) }
            }
            guard !rows.isEmpty else { continue }
            request.order?.sort(&rows, source: related.source)
            groups.append(Group(objectID: objectID, rows: rows, start: total))
            total += rows.count
        }
        self.groups = groups
        self.total = total
    }

    /// The group holding row `position` of the concatenation (`position < total`).
    func groupIndex(ofRow position: Int) -> Int {
        var low = 0
        var high = groups.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if groups[middle].start <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

/// Which rows of a ``RelatedSelection`` one answer holds. The transfer limit is the related layer's
/// maxRecordCount, counted over all groups: without related paging the answer is the first that many rows;
/// with it, `resultOffset`/`resultRecordCount` (capped at the limit) page the concatenation. The flag is true
/// exactly when rows follow the answer, except under the `related-short-chunk` quirk: an answer whose rows
/// come from more than one origin and number more than half the limit is cut at half, flag set.
struct RelatedPage: Sendable {
    let range: Range<Int>
    let exceededTransferLimit: Bool

    init(_ selection: RelatedSelection, request: RelatedQueryParameters, limit: Int, shortChunk: Bool) {
        let offset = min(request.offset ?? 0, selection.total)
        let size = min(request.recordCount ?? limit, limit)
        var end = min(selection.total, offset + size)
        if shortChunk, end - offset > limit / 2,
            selection.groupIndex(ofRow: offset) != selection.groupIndex(ofRow: end - 1)
        {
            end = offset + limit / 2
        }
        range = offset..<end
        exceededTransferLimit = end < selection.total
    }
}
