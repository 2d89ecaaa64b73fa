/// A packed R-tree over the segments (or, for points, the vertices) of a large prepared shape, so relating
/// two big geometries costs O((n + m) log n) rather than O(n·m): a county boundary against a detailed query
/// polygon stays in milliseconds.
struct SegmentIndex: Sendable {
    /// Shapes with fewer segments than this are scanned linearly, which is faster for them.
    static let threshold = 128

    private let index: SpatialIndex
    /// The part and the position in it of each entry's first vertex.
    private let part: [Int32]
    private let start: [Int32]

    /// Indexes the segments of `parts` (or the vertices, when `vertices` is true); `nil` when the shape is
    /// small or has coordinates that are not finite (then the linear scans, which tolerate them, are used).
    init?(parts: [[Position]], vertices: Bool) {
        let total = parts.reduce(0) { $0 + (vertices ? $1.count : max($1.count - 1, 0)) }
        guard total >= Self.threshold, total < Int(Int32.max) else { return nil }
        var builder = SpatialIndex.Builder(capacity: total)
        var part: [Int32] = []
        var start: [Int32] = []
        part.reserveCapacity(total)
        start.reserveCapacity(total)
        do {
            for (p, positions) in parts.enumerated() {
                let count = vertices ? positions.count : positions.count - 1
                guard count > 0 else { continue }
                for i in 0..<count {
                    let a = positions[i]
                    let b = vertices ? a : positions[i + 1]
                    try builder.add(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y),
                                    id: Int32(part.count))
                    part.append(Int32(p))
                    start.append(Int32(i))
                }
            }
        } catch {
            return nil
        }
        index = builder.build()
        self.part = part
        self.start = start
    }

    /// Calls `body` with (part, position) of every entry whose box comes within `tolerance` of `box`;
    /// stops and returns false when `body` does.
    func visit(near box: Box, tolerance: Double, _ body: (Int, Int) -> Bool) -> Bool {
        var completed = true
        index.indices.withUnsafeBufferPointer { ids in
            index.traverse(minX: box.minX - tolerance, minY: box.minY - tolerance,
                           maxX: box.maxX + tolerance, maxY: box.maxY + tolerance) { first, end in
                for position in first..<end {
                    let id = Int(ids[position])
                    if !body(Int(part[id]), Int(start[id])) {
                        completed = false
                        return false
                    }
                }
                return true
            } item: { position in
                let id = Int(ids[position])
                completed = body(Int(part[id]), Int(start[id]))
                return completed
            }
        }
        return completed
    }
}
