/// The recursive subdivision that generated the parcels, kept as their spatial index.
///
/// Nodes are stored in preorder, so a node's left child is the next node and only the right child's
/// position is stored. Each node covers a contiguous range of parcel indices (the parcels were numbered in
/// the same depth-first order), and its rectangle is exactly the union of its parcels. Nodes of at most
/// ``bucketSize`` parcels are buckets: their parcels are tested one by one. A search visits left before
/// right, so it reports parcel indices in ascending order without sorting.
struct ParcelTree: Sendable {
    static let bucketSize = 16

    let minX: [Int32]
    let minY: [Int32]
    let maxX: [Int32]
    let maxY: [Int32]
    let first: [Int32]
    let count: [Int32]
    /// The right child's node position; -1 for a bucket.
    let right: [Int32]

    var nodeCount: Int { first.count }

    var memoryFootprint: Int { nodeCount * 7 * 4 }

    /// A rectangle in meters. Node corners are converted as `Double(cm) / 100`, exactly as parcel vertices
    /// are, so comparisons agree with FeatureGeometry's on the same coordinates.
    struct Box: Sendable {
        var minX: Double
        var minY: Double
        var maxX: Double
        var maxY: Double
    }

    /// Walks the nodes whose rectangles intersect `outer`. A node wholly inside `inner` is reported whole
    /// through `inside(first, count)`; the parcels of a bucket that is not are reported through
    /// `bucket(first, count)` for the caller to test one by one.
    func visit(outer: Box, inner: Box, inside: (Int, Int) throws -> Void, bucket: (Int, Int) throws -> Void) rethrows {
        guard nodeCount > 0 else { return }
        var stack: [Int32] = [0]
        stack.reserveCapacity(128)
        while let top = stack.popLast() {
            let node = Int(top)
            let x0 = Double(minX[node]) / 100, y0 = Double(minY[node]) / 100
            let x1 = Double(maxX[node]) / 100, y1 = Double(maxY[node]) / 100
            if x0 > outer.maxX || y0 > outer.maxY || x1 < outer.minX || y1 < outer.minY { continue }
            if inner.minX <= x0 && inner.minY <= y0 && x1 <= inner.maxX && y1 <= inner.maxY {
                try inside(Int(first[node]), Int(count[node]))
                continue
            }
            let rightChild = right[node]
            if rightChild < 0 {
                try bucket(Int(first[node]), Int(count[node]))
            } else {
                stack.append(rightChild)
                stack.append(top + 1)
            }
        }
    }
}
