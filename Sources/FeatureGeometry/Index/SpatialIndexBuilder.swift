extension SpatialIndex {
    /// Collects boxes and ids, then packs them into a ``SpatialIndex`` in O(n log n).
    ///
    /// Ids are `Int32` to keep the index compact: use object ids directly when they fit, or positions in an
    /// array of your own (of 64-bit object ids, features, ...) when they do not.
    package struct Builder: Sendable {
        private var boxes: [Double] = []
        private var ids: [Int32] = []

        /// `capacity` is how many entries to make room for up front.
        package init(capacity: Int = 0) {
            boxes.reserveCapacity(4 * capacity)
            ids.reserveCapacity(capacity)
        }

        /// The number of entries added so far.
        package var count: Int { ids.count }

        /// Adds one entry. Throws ``GeometryError/Code/invalidBoundingBox`` for a box that is not finite or
        /// whose minimum exceeds its maximum, since it could never be found and would disorder the tree.
        package mutating func add(minX: Double, minY: Double, maxX: Double, maxY: Double, id: Int32) throws {
            guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite, minX <= maxX, minY <= maxY else {
                throw GeometryError(
                    .invalidBoundingBox,
                    "the box [\(minX), \(minY), \(maxX), \(maxY)] for id \(id) is not finite or is inverted")
            }
            guard ids.count < SpatialIndex.maximumCount else {
                throw GeometryError(
                    .limitExceeded, "a spatial index holds at most \(SpatialIndex.maximumCount) entries")
            }
            boxes.append(minX)
            boxes.append(minY)
            boxes.append(maxX)
            boxes.append(maxY)
            ids.append(id)
        }

        /// Adds one entry for the envelope.
        package mutating func add(_ envelope: Envelope, id: Int32) throws {
            try add(minX: envelope.xmin, minY: envelope.ymin, maxX: envelope.xmax, maxY: envelope.ymax, id: id)
        }

        /// Packs the entries into an index whose nodes have up to `nodeSize` children (clamped to 2...256;
        /// 16 suits most data).
        package func build(nodeSize: Int = 16) -> SpatialIndex {
            SpatialIndex.pack(boxes: boxes, ids: ids, nodeSize: min(max(nodeSize, 2), 256))
        }
    }

    /// Node positions are Int32, and the internal levels add about 1/15 to the entries.
    static let maximumCount = 1_900_000_000

    /// A box with its sort key, for the STR sorts.
    private struct Keyed {
        var key: Double
        var index: Int32
    }

    static func pack(boxes input: [Double], ids: [Int32], nodeSize: Int) -> SpatialIndex {
        let count = ids.count
        guard count > 0 else {
            return SpatialIndex(count: 0, nodeSize: nodeSize, boxes: [], indices: [], levelEnds: [0])
        }
        var levelEnds = [count]
        var levelCount = count
        var total = count
        repeat {
            levelCount = (levelCount + nodeSize - 1) / nodeSize
            total += levelCount
            levelEnds.append(total)
        } while levelCount > 1

        var boxes = [Double](repeating: 0, count: 4 * total)
        var indices = [Int32](repeating: 0, count: total)
        // Items in STR order.
        let order = strOrder(input, start: 0, count: count, nodeSize: nodeSize)
        for (slot, source) in order.enumerated() {
            let from = 4 * Int(source)
            for k in 0..<4 { boxes[4 * slot + k] = input[from + k] }
            indices[slot] = ids[Int(source)]
        }
        // Each level: group consecutive runs of nodeSize into parents, then tile the parents by STR before
        // they are grouped in turn (moving a node moves its box and child pointer; its subtree stays put).
        var levelStart = 0
        for level in 1..<levelEnds.count {
            let childEnd = levelEnds[level - 1]
            var parent = childEnd
            var child = levelStart
            while child < childEnd {
                let last = min(child + nodeSize, childEnd)
                var box = Box.empty
                for c in child..<last {
                    box.expand(toInclude: Box(minX: boxes[4 * c], minY: boxes[4 * c + 1],
                                              maxX: boxes[4 * c + 2], maxY: boxes[4 * c + 3]))
                }
                boxes[4 * parent] = box.minX
                boxes[4 * parent + 1] = box.minY
                boxes[4 * parent + 2] = box.maxX
                boxes[4 * parent + 3] = box.maxY
                indices[parent] = Int32(child)
                parent += 1
                child = last
            }
            levelStart = childEnd
            let levelSize = levelEnds[level] - levelStart
            if levelSize > nodeSize {
                reorder(&boxes, &indices, start: levelStart, count: levelSize, nodeSize: nodeSize)
            }
        }
        return SpatialIndex(count: count, nodeSize: nodeSize, boxes: boxes, indices: indices, levelEnds: levelEnds)
    }

    /// Puts the nodes `start..<start+count` in STR order.
    private static func reorder(
        _ boxes: inout [Double], _ indices: inout [Int32], start: Int, count: Int, nodeSize: Int
    ) {
        let order = strOrder(boxes, start: start, count: count, nodeSize: nodeSize)
        let oldBoxes = Array(boxes[(4 * start)..<(4 * (start + count))])
        let oldIndices = Array(indices[start..<(start + count)])
        for (slot, source) in order.enumerated() {
            let from = 4 * Int(source)
            for k in 0..<4 { boxes[4 * (start + slot) + k] = oldBoxes[from + k] }
            indices[start + slot] = oldIndices[Int(source)]
        }
    }

    /// The Sort-Tile-Recursive order of `count` boxes stored from `start` in `boxes`, as offsets from `start`:
    /// sorted by center x, cut into √(leaves) vertical slices of whole nodes, each slice sorted by center y.
    private static func strOrder(_ boxes: [Double], start: Int, count: Int, nodeSize: Int) -> [Int32] {
        var keyed = [Keyed](repeating: Keyed(key: 0, index: 0), count: count)
        boxes.withUnsafeBufferPointer { b in
            for i in 0..<count {
                let p = 4 * (start + i)
                keyed[i] = Keyed(key: b[p] + (b[p + 2] - b[p]) / 2, index: Int32(i))
            }
        }
        keyed.sort { $0.key < $1.key }
        let leaves = (count + nodeSize - 1) / nodeSize
        let slices = Int(Double(leaves).squareRoot().rounded(.up))
        let sliceSize = nodeSize * ((leaves + slices - 1) / slices)
        boxes.withUnsafeBufferPointer { b in
            var sliceStart = 0
            while sliceStart < count {
                let sliceEnd = min(sliceStart + sliceSize, count)
                for i in sliceStart..<sliceEnd {
                    let p = 4 * (start + Int(keyed[i].index))
                    keyed[i].key = b[p + 1] + (b[p + 3] - b[p + 1]) / 2
                }
                keyed[sliceStart..<sliceEnd].sort { $0.key < $1.key }
                sliceStart = sliceEnd
            }
        }
        return keyed.map(\.index)
    }
}
