// geometry-benchmark: envelope queries through FeatureGeometry's STR packed R-tree over 2.4 million synthetic
// parcel boxes, against a brute-force linear scan of the same boxes in the same run. A benchmark, not a test:
// it prints figures and the target (a map-view query under 5 ms) and fails only on a wrong answer.
//
//   geometry-benchmark [--count 2400000] [--queries 1000] [--codec 100000]
//
// It also times Esri JSON encoding and decoding of parcel polygons against Foundation's JSONSerialization.
#if canImport(FeatureGeometry)
import FeatureGeometry
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

var count = 2_400_000
var queryCount = 1_000
var codecCount = 100_000
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--count": count = arguments.next().flatMap { Int($0) } ?? count
    case "--queries": queryCount = arguments.next().flatMap { Int($0) } ?? queryCount
    case "--codec": codecCount = arguments.next().flatMap { Int($0) } ?? codecCount
    default:
        print("usage: geometry-benchmark [--count N] [--queries N] [--codec N]")
        exit(2)
    }
}
let targetMilliseconds = 5.0

print("geometry-benchmark: \(count) synthetic parcels around 34.03 N, 118.805 W (Web Mercator), \(queryCount) queries")
let (boxes, generateSeconds) = timed { ParcelGenerator.boxes(count: count) }
print("  generate parcel boxes     \(format(generateSeconds, 2)) s")

let (builder, addSeconds) = try timed { () throws -> SpatialIndex.Builder in
    var builder = SpatialIndex.Builder(capacity: count)
    for id in 0..<count {
        let p = 4 * id
        try builder.add(minX: boxes[p], minY: boxes[p + 1], maxX: boxes[p + 2], maxY: boxes[p + 3], id: Int32(id))
    }
    return builder
}
let (index, packSeconds) = timed { builder.build() }
print("  index: add \(format(addSeconds, 2)) s, STR pack \(format(packSeconds, 2)) s (build total "
    + "\(format(addSeconds + packSeconds, 2)) s), height \(index.height), \(index.memoryFootprint >> 20) MiB")

/// The linear-scan peer: every box tested, ids collected, in input order.
@MainActor
func linearScan(_ q: Envelope) -> [Int32] {
    var result: [Int32] = []
    boxes.withUnsafeBufferPointer { b in
        for id in 0..<count {
            let p = 4 * id
            if b[p] <= q.xmax && b[p + 2] >= q.xmin && b[p + 1] <= q.ymax && b[p + 3] >= q.ymin {
                result.append(Int32(id))
            }
        }
    }
    return result
}

struct Row {
    var name: String
    var results: Double
    var index: LatencySummary
    var scan: LatencySummary?
}

@MainActor
func measure(_ name: String, _ queries: [Envelope], scanEvery: Int = 1) -> Row {
    var indexSamples: [UInt64] = []
    var scanSamples: [UInt64] = []
    var totalResults = 0
    for (number, query) in queries.enumerated() {
        let start = nowNanoseconds()
        let found = index.search(query)
        indexSamples.append(nowNanoseconds() - start)
        totalResults += found.count
        guard number % scanEvery == 0 else { continue }
        let scanStart = nowNanoseconds()
        let expected = linearScan(query)
        scanSamples.append(nowNanoseconds() - scanStart)
        if found.count != expected.count || (number < 20 && Set(found) != Set(expected)) {
            print("WRONG ANSWER: \(name) query \(number): index \(found.count) ids, linear scan \(expected.count)")
            exit(1)
        }
    }
    return Row(
        name: name, results: Double(totalResults) / Double(max(queries.count, 1)),
        index: LatencySummary(nanoseconds: indexSamples),
        scan: scanSamples.isEmpty ? nil : LatencySummary(nanoseconds: scanSamples))
}

let mapView = ParcelGenerator.queries(count: queryCount, width: 2_000, height: 1_500, seed: 7)
let small = ParcelGenerator.queries(count: queryCount, width: 200, height: 150, seed: 11)
var rows = [measure("map view 2 x 1.5 km", mapView), measure("small 200 x 150 m", small)]
if let bounds = index.bounds {
    rows.append(measure("whole extent", Array(repeating: bounds, count: 5)))
}

// Index plus exact relation: candidates from the index, then polygon-intersects-envelope on each (the
// candidates' polygons are rebuilt before the clock starts, as a feature store would hold them).
var refineSamples: [UInt64] = []
var refineResults = 0
for query in mapView.prefix(100) {
    let filter = SpatialFilter(geometry: .envelope(query), relation: .intersects)
    let candidates = index.search(filter.searchEnvelope ?? query)
    var polygons: [Int32: Geometry] = [:]
    for id in candidates { polygons[id] = .polygon(ParcelGenerator.polygon(of: Int(id))) }
    let start = nowNanoseconds()
    let matched = try index.search(filter) { polygons[$0] }
    refineSamples.append(nowNanoseconds() - start)
    refineResults += matched.count
}
rows.append(Row(name: "map view, exact intersects", results: Double(refineResults) / 100,
                index: LatencySummary(nanoseconds: refineSamples), scan: nil))

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
print("")
print(pad("query", 28) + pad("ids/query", 11) + pad("index p50 ms", 14) + pad("p99 ms", 10)
    + pad("scan p50 ms", 13) + pad("p99 ms", 10) + "speedup (p50)")
for row in rows {
    var line = pad(row.name, 28) + pad(format(row.results, 1), 11) + pad(format(row.index.p50, 4), 14)
        + pad(format(row.index.p99, 4), 10)
    if let scan = row.scan {
        line += pad(format(scan.p50, 3), 13) + pad(format(scan.p99, 3), 10)
            + "\(format(scan.p50 / max(row.index.p50, 1e-9), 1))x"
    } else {
        line += pad("-", 13) + pad("-", 10) + "-"
    }
    print(line)
}
let mapViewP99 = rows[0].index.p99
print("")
print("target: map-view envelope query under \(format(targetMilliseconds, 1)) ms: p99 \(format(mapViewP99, 4)) ms "
    + (mapViewP99 < targetMilliseconds ? "(met)" : "(NOT MET)"))
print("peak RSS \(format(peakResidentMiB(), 1)) MiB (index, its input boxes and the linear scan's copy)")
if codecCount > 0 {
    print("")
    for line in try codecBenchmark(count: codecCount) { print(line) }
}
