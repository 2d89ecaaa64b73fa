/// A geometry flattened for relating: its parts as vertex lists, their boxes, and its dimension. Preparing
/// once (as ``SpatialFilter`` does for the query geometry) saves the work on every feature compared.
struct PreparedShape: Sendable {
    /// The topological dimension: points, lines or areas.
    enum Dimension: Int, Comparable, Sendable {
        case puntal = 0
        case lineal = 1
        case areal = 2

        static func < (lhs: Dimension, rhs: Dimension) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    let dimension: Dimension
    /// Points: one part holding every point. Lines: the paths. Areas: the closed rings.
    let parts: [[Position]]
    let partBoxes: [Box]
    let box: Box
    /// For lines, the OGC boundary: path end points that end an odd number of open paths (mod-2 rule).
    let lineBoundary: [Position]
    /// The segments (for points, the vertices) in an R-tree: set by ``indexed()`` for large shapes that will
    /// be probed many times.
    private(set) var segmentIndex: SegmentIndex?
    /// The number of segments (for points, of vertices): the work of scanning the shape once.
    let segmentCount: Int

    var isEmpty: Bool { box.isEmpty }

    init(_ geometry: Geometry) {
        switch geometry {
        case .point(let point):
            self.init(dimension: .puntal, parts: [[point.position]])
        case .multipoint(let multipoint):
            self.init(dimension: .puntal, parts: multipoint.points.isEmpty ? [] : [multipoint.points])
        case .polyline(let polyline):
            let paths = polyline.paths.compactMap { path -> [Position]? in
                path.isEmpty ? nil : (path.count == 1 ? [path[0], path[0]] : path)
            }
            self.init(dimension: .lineal, parts: paths)
        case .polygon(let polygon):
            self.init(dimension: .areal, parts: polygon.rings.filter { !$0.isEmpty }.map(RingMath.closed))
        case .envelope(let envelope):
            let low = Position(envelope.xmin, envelope.ymin)
            let high = Position(envelope.xmax, envelope.ymax)
            if envelope.width == 0 && envelope.height == 0 {
                self.init(dimension: .puntal, parts: [[low]])
            } else if envelope.width == 0 || envelope.height == 0 {
                self.init(dimension: .lineal, parts: [[low, high]])
            } else {
                self.init(dimension: .areal, parts: Polygon(envelope).rings)
            }
        }
    }

    /// An area from rings as they are (used to test one ring against another).
    init(areaRings: [[Position]]) {
        self.init(dimension: .areal, parts: areaRings)
    }

    /// The same parts seen as lines: an area's rings as closed paths.
    var asLines: PreparedShape { PreparedShape(dimension: .lineal, parts: parts) }

    private init(dimension: Dimension, parts: [[Position]]) {
        self.dimension = dimension
        self.parts = parts
        var box = Box.empty
        var partBoxes: [Box] = []
        partBoxes.reserveCapacity(parts.count)
        for part in parts {
            let partBox = Box(part)
            partBoxes.append(partBox)
            box.expand(toInclude: partBox)
        }
        self.partBoxes = partBoxes
        self.box = box
        self.lineBoundary = dimension == .lineal ? Self.mod2Boundary(parts) : []
        self.segmentCount = parts.reduce(0) { $0 + (dimension == .puntal ? $1.count : max($1.count - 1, 0)) }
        self.segmentIndex = nil
    }

    /// This shape with its segment index built, when it is large enough for the index to pay (see
    /// ``SegmentIndex/threshold``): a linear scan is cheaper than building an index for a few probes.
    func indexed() -> PreparedShape {
        guard segmentIndex == nil, segmentCount >= SegmentIndex.threshold else { return self }
        var copy = self
        copy.segmentIndex = SegmentIndex(parts: parts, vertices: dimension == .puntal)
        return copy
    }

    /// This shape, indexed when it is about to be probed `probes` times.
    func prepared(forProbes probes: Int) -> PreparedShape {
        probes >= 16 ? indexed() : self
    }

    private static func mod2Boundary(_ paths: [[Position]]) -> [Position] {
        var counts: [Position: Int] = [:]
        for path in paths {
            guard let first = path.first, let last = path.last, first != last else { continue }
            counts[first, default: 0] += 1
            counts[last, default: 0] += 1
        }
        return counts.filter { $0.value % 2 == 1 }.map(\.key)
    }

    /// Calls `body` with every segment of every part whose box comes within `tolerance` of `box`, in no
    /// particular order; stops and returns false when `body` does. Not for points (see `forEachVertex`).
    @inline(__always)
    func forEachSegment(near box: Box, tolerance: Double, _ body: (Position, Position) -> Bool) -> Bool {
        if let segmentIndex {
            return segmentIndex.visit(near: box, tolerance: tolerance) { part, i in
                body(parts[part][i], parts[part][i + 1])
            }
        }
        for (index, part) in parts.enumerated() where partBoxes[index].intersects(box, tolerance: tolerance) {
            guard part.count >= 2 else { continue }
            for i in 0..<(part.count - 1) {
                let a = part[i]
                let b = part[i + 1]
                if !Box(a, b).intersects(box, tolerance: tolerance) { continue }
                if !body(a, b) { return false }
            }
        }
        return true
    }

    /// Calls `body` with every vertex within `tolerance` of `box` (for points); stops and returns false when
    /// `body` does.
    func forEachVertex(near box: Box, tolerance: Double, _ body: (Position) -> Bool) -> Bool {
        if let segmentIndex {
            return segmentIndex.visit(near: box, tolerance: tolerance) { part, i in body(parts[part][i]) }
        }
        for (index, part) in parts.enumerated() where partBoxes[index].intersects(box, tolerance: tolerance) {
            for p in part where box.contains(p, tolerance: tolerance) {
                if !body(p) { return false }
            }
        }
        return true
    }
}
