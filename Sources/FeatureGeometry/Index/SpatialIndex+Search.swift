extension SpatialIndex {
    /// The ids of the entries whose boxes intersect the rectangle (closed: touching counts), in index order.
    package func search(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [Int32] {
        if let bounds, minX <= bounds.xmin, minY <= bounds.ymin, bounds.xmax <= maxX, bounds.ymax <= maxY {
            return Array(indices[0..<count])  // everything: one copy, no walk
        }
        var result: [Int32] = []
        indices.withUnsafeBufferPointer { ids in
            traverse(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { first, end in
                result.append(contentsOf: ids[first..<end])
                return true
            } item: { position in
                result.append(ids[position])
                return true
            }
        }
        return result
    }

    /// The ids of the entries whose boxes intersect the envelope. Its spatial reference is not consulted.
    package func search(_ envelope: Envelope) -> [Int32] {
        search(minX: envelope.xmin, minY: envelope.ymin, maxX: envelope.xmax, maxY: envelope.ymax)
    }

    /// Calls `body` with the id of every entry whose box intersects the envelope, without collecting them;
    /// stops at the first error `body` throws and rethrows it.
    package func forEach<E: Error>(intersecting envelope: Envelope, _ body: (Int32) throws(E) -> Void) throws(E) {
        var failure: E?
        indices.withUnsafeBufferPointer { ids in
            traverse(minX: envelope.xmin, minY: envelope.ymin, maxX: envelope.xmax, maxY: envelope.ymax) { first, end in
                do throws(E) {
                    for position in first..<end { try body(ids[position]) }
                    return true
                } catch {
                    failure = error
                    return false
                }
            } item: { position in
                do throws(E) {
                    try body(ids[position])
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        }
        if let failure { throw failure }
    }

    /// How many entries' boxes intersect the envelope.
    package func count(intersecting envelope: Envelope) -> Int {
        var total = 0
        traverse(minX: envelope.xmin, minY: envelope.ymin, maxX: envelope.xmax, maxY: envelope.ymax) { first, end in
            total += end - first
            return true
        } item: { _ in
            total += 1
            return true
        }
        return total
    }

    /// Walks the tree depth first. Nodes whose box lies wholly inside the query are not tested further: their
    /// items are handed over as ranges of positions (`items`), which makes a query of the whole extent about
    /// as cheap as copying the ids. Items tested one by one go to `item`. Either returns false to stop.
    func traverse(
        minX: Double, minY: Double, maxX: Double, maxY: Double,
        items: (Int, Int) -> Bool, item: (Int) -> Bool
    ) {
        guard count > 0, minX <= maxX, minY <= maxY else { return }
        let root = levelEnds[levelEnds.count - 1] - 1
        // Positive entries are nodes to test; negative ones (~position) are nodes known to lie inside.
        var stack: [Int] = []
        stack.reserveCapacity(nodeSize * (levelEnds.count + 1))
        boxes.withUnsafeBufferPointer { b in
            indices.withUnsafeBufferPointer { next in
                // The root is tested here; every other node when its parent is expanded.
                let r = 4 * root
                if b[r] > maxX || b[r + 1] > maxY || b[r + 2] < minX || b[r + 3] < minY { return }
                let rootInside = minX <= b[r] && minY <= b[r + 1] && b[r + 2] <= maxX && b[r + 3] <= maxY
                stack.append(rootInside ? ~root : root)
                while let entry = stack.popLast() {
                    let node = entry < 0 ? ~entry : entry
                    let first = Int(next[node])
                    let end = min(first + nodeSize, levelEnd(containing: first))
                    let childrenAreItems = first < count
                    if entry < 0 {
                        if childrenAreItems {
                            if !items(first, end) { return }
                        } else {
                            for child in first..<end { stack.append(~child) }
                        }
                        continue
                    }
                    for child in first..<end {
                        let p = 4 * child
                        let x0 = b[p], y0 = b[p + 1], x1 = b[p + 2], y1 = b[p + 3]
                        if x0 > maxX || y0 > maxY || x1 < minX || y1 < minY { continue }
                        if childrenAreItems {
                            if !item(child) { return }
                        } else if minX <= x0 && minY <= y0 && x1 <= maxX && y1 <= maxY {
                            stack.append(~child)
                        } else {
                            stack.append(child)
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private func levelEnd(containing position: Int) -> Int {
        for end in levelEnds where position < end { return end }
        return levelEnds[levelEnds.count - 1]
    }
}

extension SpatialIndex {
    /// The ids of the entries that match `filter` exactly: candidates from the index by the filter's
    /// ``SpatialFilter/searchEnvelope``, then each candidate's geometry tested with ``SpatialFilter/matches(_:)``.
    ///
    /// `geometry` returns the geometry of an id (`nil` when it has none, which then does not match). The
    /// filter and the index must share coordinates: project the filter to the index's spatial reference
    /// first (``SpatialFilter/projected(to:)``).
    package func search(_ filter: SpatialFilter, geometry: (Int32) throws -> Geometry?) throws -> [Int32] {
        guard let envelope = filter.searchEnvelope else { return [] }
        var result: [Int32] = []
        try forEach(intersecting: envelope) { (id: Int32) throws(any Error) in
            if let feature = try geometry(id), try filter.matches(feature) { result.append(id) }
        }
        return result
    }
}
