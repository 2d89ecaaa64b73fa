import FeatureGeometry
import PropertyBased
import Testing

@Suite("Spatial index (STR packed R-tree)")
struct SpatialIndexTests {
    struct Sample: Sendable {
        var boxes: [Envelope]
        var queries: [Envelope]
        var nodeSize: Int
    }

    static func randomBox(_ rng: inout some RandomNumberGenerator, maxSize: Double) -> Envelope {
        // On a coarse grid half the time, so boxes touch and coincide often.
        let grid = Bool.random(using: &rng)
        func value(_ range: ClosedRange<Double>) -> Double {
            grid ? Double(Int.random(in: Int(range.lowerBound)...Int(range.upperBound), using: &rng))
                : Double.random(in: range, using: &rng)
        }
        let x = value(0...1000)
        let y = value(0...1000)
        return Envelope(xmin: x, ymin: y, xmax: x + value(0...maxSize), ymax: y + value(0...maxSize))
    }

    static let samples = Generator<Sample, Shrink.None<Sample>>(run: { rng in
        let count = Int.random(in: 0...3000, using: &rng)
        let boxes = (0..<count).map { _ in randomBox(&rng, maxSize: 20) }
        let queries = (0..<20).map { _ in randomBox(&rng, maxSize: Bool.random(using: &rng) ? 50 : 600) }
        return Sample(boxes: boxes, queries: queries, nodeSize: [2, 3, 4, 9, 16, 64].randomElement(using: &rng) ?? 16)
    })

    @Test func queriesEqualABruteForceFilter() async {
        await propertyCheck(count: 60, input: Self.samples) { sample in
            let index = try SpatialIndex(envelopes: sample.boxes, nodeSize: sample.nodeSize)
            #expect(index.count == sample.boxes.count)
            for query in sample.queries {
                let expected = sample.boxes.indices.filter { sample.boxes[$0].intersects(query) }.map { Int32($0) }
                let found = index.search(query)
                #expect(found.sorted() == expected, "node size \(sample.nodeSize), query \(query)")
                #expect(index.count(intersecting: query) == expected.count)
                var visited: [Int32] = []
                index.forEach(intersecting: query) { visited.append($0) }
                #expect(visited.sorted() == expected)
            }
            if let bounds = index.bounds {
                #expect(index.search(bounds).count == sample.boxes.count)
                #expect(Set(index.search(bounds)).count == sample.boxes.count)
            }
        }
    }

    @Test func emptyAndSingleEntryIndexes() throws {
        let empty = try SpatialIndex(envelopes: [])
        #expect(empty.count == 0 && empty.bounds == nil && empty.search(Envelope(xmin: -1, ymin: -1, xmax: 1, ymax: 1)).isEmpty)
        let one = try SpatialIndex(envelopes: [Envelope(xmin: 1, ymin: 1, xmax: 2, ymax: 2)])
        #expect(one.search(Envelope(xmin: 2, ymin: 2, xmax: 3, ymax: 3)) == [0])  // touching counts
        #expect(one.search(Envelope(xmin: 2.5, ymin: 2.5, xmax: 3, ymax: 3)).isEmpty)
        #expect(one.bounds == Envelope(xmin: 1, ymin: 1, xmax: 2, ymax: 2))
        #expect(one.search(minX: 3, minY: 3, maxX: 0, maxY: 0).isEmpty)  // inverted: nothing
    }

    @Test func idsAreTheCallersAndBadBoxesAreRejected() throws {
        var builder = SpatialIndex.Builder()
        try builder.add(minX: 0, minY: 0, maxX: 1, maxY: 1, id: 4242)
        try builder.add(Envelope(xmin: 5, ymin: 5, xmax: 6, ymax: 6), id: -7)
        #expect(builder.count == 2)
        let index = builder.build()
        #expect(index.search(Envelope(xmin: 0, ymin: 0, xmax: 10, ymax: 10)).sorted() == [-7, 4242])
        for (minX, minY, maxX, maxY) in [(Double.nan, 0.0, 1.0, 1.0), (0, 0, .infinity, 1), (2, 0, 1, 1), (0, 2, 1, 1)] {
            expectGeometryError(.invalidBoundingBox) { try builder.add(minX: minX, minY: minY, maxX: maxX, maxY: maxY, id: 1) }
        }
    }

    @Test func forEachStopsAtTheFirstError() throws {
        struct Stop: Error {}
        let index = try SpatialIndex(envelopes: (0..<1000).map { Envelope(xmin: Double($0), ymin: 0, xmax: Double($0) + 1, ymax: 1) })
        var seen = 0
        #expect(throws: Stop.self) {
            try index.forEach(intersecting: Envelope(xmin: 0, ymin: 0, xmax: 1000, ymax: 1)) { _ throws(Stop) in
                seen += 1
                if seen == 10 { throw Stop() }
            }
        }
        #expect(seen == 10)
    }

    @Test func aLargeGridIsIndexedCompactly() throws {
        var builder = SpatialIndex.Builder(capacity: 250_000)
        for row in 0..<500 {
            for column in 0..<500 {
                try builder.add(minX: Double(column), minY: Double(row), maxX: Double(column) + 0.9, maxY: Double(row) + 0.9,
                                id: Int32(row * 500 + column))
            }
        }
        let index = builder.build()
        #expect(index.height == 5)
        #expect(index.memoryFootprint < 250_000 * 40)
        #expect(index.search(Envelope(xmin: 10.5, ymin: 10.5, xmax: 12.5, ymax: 11.5)).sorted() == [5010, 5011, 5012, 5510, 5511, 5512])
        #expect(index.count(intersecting: Envelope(xmin: -1, ymin: -1, xmax: 99.95, ymax: 499.95)) == 100 * 500)
    }

    @Test func refiningCandidatesMatchesTestingEveryFeature() async {
        let input = Generator<([Geometry], Geometry), Shrink.None<([Geometry], Geometry)>>(run: { rng in
            let features = (0..<200).map { _ in RandomGeometry.gridGeometry(&rng) }
            return (features, RandomGeometry.gridGeometry(&rng))
        })
        await propertyCheck(count: 50, input: input) { sample in
            let (features, query) = sample
            let index = try SpatialIndex(extentsOf: features)
            for relation in SpatialRelation.allCases {
                let filter = SpatialFilter(geometry: query, relation: relation)
                let found = try index.search(filter) { features[Int($0)] }.sorted()
                let expected = try features.indices.filter { try filter.matches(features[$0]) }.map { Int32($0) }
                #expect(found == expected, "\(relation)")
            }
        }
    }
}
