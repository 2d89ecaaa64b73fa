import FeatureGeometry
import FeatureQuerySupport

/// Generates the parcels by recursive subdivision of the county's box: each rectangle is cut across its
/// longer side near the middle, and its parcel count is shared between the halves by the density's mass in
/// each (by area once a block holds 64 parcels or fewer). The leaves are the parcels: they tile the county
/// without gaps or overlaps, neighbours share edges exactly (coordinates are whole centimeters), and they
/// are small where the density is high. Deterministic: one generator, drawn in a fixed order.
struct ParcelGenerator {
    private var random: SplitMix64
    private let seed: UInt64
    private let parcelCount: Int
    private let density = ParcelDensity()
    private let viewpoint = WebMercator.project(
        longitude: SampleDataset.viewpointLongitude, latitude: SampleDataset.viewpointLatitude)

    private var xmin: [Int32] = []
    private var ymin: [Int32] = []
    private var xmax: [Int32] = []
    private var ymax: [Int32] = []
    private var corner: [UInt8] = []
    private var useType: [UInt8] = []
    private var city: [UInt8] = []
    private var taxRateArea: [Int32] = []
    private var landValue: [Int32] = []
    private var improvementValue: [Int32] = []

    private var nodeMinX: [Int32] = []
    private var nodeMinY: [Int32] = []
    private var nodeMaxX: [Int32] = []
    private var nodeMaxY: [Int32] = []
    private var nodeFirst: [Int32] = []
    private var nodeCount: [Int32] = []
    private var nodeRight: [Int32] = []

    /// A rectangle in whole centimeters.
    private struct Rect {
        var x0: Int64
        var y0: Int64
        var x1: Int64
        var y1: Int64
    }

    /// Generates `count` parcels (at least 1) from `seed`.
    static func generate(count: Int, seed: UInt64) -> ParcelStore {
        var generator = ParcelGenerator(seed: seed, capacity: count)
        let region = ParcelDensity.region
        let root = Rect(
            x0: Int64((region.xmin * 100).rounded()), y0: Int64((region.ymin * 100).rounded()),
            x1: Int64((region.xmax * 100).rounded()), y1: Int64((region.ymax * 100).rounded()))
        _ = generator.node(root, max(1, count))
        return generator.store()
    }

    private init(seed: UInt64, capacity: Int) {
        self.seed = seed
        parcelCount = max(1, capacity)
        random = SplitMix64(seed: seed)
        xmin.reserveCapacity(capacity)
        ymin.reserveCapacity(capacity)
        xmax.reserveCapacity(capacity)
        ymax.reserveCapacity(capacity)
        corner.reserveCapacity(capacity)
        useType.reserveCapacity(capacity)
        city.reserveCapacity(capacity)
        taxRateArea.reserveCapacity(capacity)
        landValue.reserveCapacity(capacity)
        improvementValue.reserveCapacity(capacity)
        let nodes = 2 * capacity / ParcelTree.bucketSize + 16
        nodeMinX.reserveCapacity(nodes)
        nodeMinY.reserveCapacity(nodes)
        nodeMaxX.reserveCapacity(nodes)
        nodeMaxY.reserveCapacity(nodes)
        nodeFirst.reserveCapacity(nodes)
        nodeCount.reserveCapacity(nodes)
        nodeRight.reserveCapacity(nodes)
    }

    private func store() -> ParcelStore {
        ParcelStore(
            seed: seed, xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, corner: corner, useType: useType,
            city: city, taxRateArea: taxRateArea, landValue: landValue, improvementValue: improvementValue,
            tree: ParcelTree(
                minX: nodeMinX, minY: nodeMinY, maxX: nodeMaxX, maxY: nodeMaxY, first: nodeFirst,
                count: nodeCount, right: nodeRight))
    }

    /// Adds the node for `rect` holding `count` parcels, and everything below it; returns its position.
    private mutating func node(_ rect: Rect, _ count: Int) -> Int32 {
        let position = nodeFirst.count
        nodeMinX.append(Int32(truncatingIfNeeded: rect.x0))
        nodeMinY.append(Int32(truncatingIfNeeded: rect.y0))
        nodeMaxX.append(Int32(truncatingIfNeeded: rect.x1))
        nodeMaxY.append(Int32(truncatingIfNeeded: rect.y1))
        nodeFirst.append(Int32(truncatingIfNeeded: xmin.count))
        nodeCount.append(Int32(truncatingIfNeeded: count))
        nodeRight.append(-1)
        if count <= ParcelTree.bucketSize {
            leaves(rect, count)
        } else {
            let (left, leftCount, right, rightCount) = split(rect, count)
            _ = node(left, leftCount)
            nodeRight[position] = node(right, rightCount)
        }
        return Int32(truncatingIfNeeded: position)
    }

    /// Emits `count` parcels tiling `rect`, without tree nodes (a bucket's contents).
    private mutating func leaves(_ rect: Rect, _ count: Int) {
        if count <= 1 {
            emit(rect)
            return
        }
        let (left, leftCount, right, rightCount) = split(rect, count)
        leaves(left, leftCount)
        leaves(right, rightCount)
    }

    private mutating func split(_ rect: Rect, _ count: Int) -> (Rect, Int, Rect, Int) {
        let width = rect.x1 - rect.x0
        let height = rect.y1 - rect.y0
        let alongX = width >= height
        let low = alongX ? rect.x0 : rect.y0
        let high = alongX ? rect.x1 : rect.y1
        let t = 0.4 + 0.2 * random.unit()
        var cut = low + Int64((Double(high - low) * t).rounded())
        cut = min(max(cut, low + 1), max(low + 1, high - 1))
        var left = rect
        var right = rect
        if alongX {
            left.x1 = cut
            right.x0 = cut
        } else {
            left.y1 = cut
            right.y0 = cut
        }
        var fraction = Double(cut - low) / Double(max(1, high - low))
        if count > 64 {
            let leftMass = density.mass(Double(left.x0) / 100, Double(left.y0) / 100, Double(left.x1) / 100, Double(left.y1) / 100)
            let rightMass = density.mass(Double(right.x0) / 100, Double(right.y0) / 100, Double(right.x1) / 100, Double(right.y1) / 100)
            if leftMass + rightMass > 0 { fraction = leftMass / (leftMass + rightMass) }
        }
        let leftCount = min(max(Int((Double(count) * fraction).rounded()), 1), count - 1)
        return (left, leftCount, right, count - leftCount)
    }

    /// Appends one parcel covering `rect`, drawing its attributes.
    private mutating func emit(_ rect: Rect) {
        xmin.append(Int32(truncatingIfNeeded: rect.x0))
        ymin.append(Int32(truncatingIfNeeded: rect.y0))
        xmax.append(Int32(truncatingIfNeeded: rect.x1))
        ymax.append(Int32(truncatingIfNeeded: rect.y1))
        let width = Double(rect.x1 - rect.x0) / 100
        let height = Double(rect.y1 - rect.y0) / 100
        let centerX = Double(rect.x0 + rect.x1) / 200
        let centerY = Double(rect.y0 + rect.y1) / 200
        let cutCorner = min(width, height) >= 5 && random.unit() < 0.3
        corner.append(cutCorner ? UInt8(1 + random.below(4)) : 0)

        // Urban where parcels are at least twice as dense as the county's average, whatever the count.
        let urban = width * height * Double(parcelCount) * 2 < density.regionArea
        let kind = ParcelAttributes.pick(urban ? ParcelAttributes.urbanWeights : ParcelAttributes.ruralWeights, random.below(1000))
        useType.append(UInt8(kind))

        let dx = centerX - viewpoint.x
        let dy = centerY - viewpoint.y
        let nearViewpoint = abs(dx) < 8_000 && abs(dy) < 8_000
        taxRateArea.append(taxRate(centerX: centerX, centerY: centerY, nearViewpoint: nearViewpoint))

        let median = nearViewpoint ? 1_000_000.0 : (urban ? 550_000.0 : 250_000.0)
        let land = random.logNormal(median: median, sigma: 0.85)
        landValue.append(Int32(min(max((land / 100).rounded() * 100, 10_000), 1_900_000_000)))
        let vacant = kind == 4 || kind == 8 || (kind == 7 && random.unit() < 0.5)
        let improvement = vacant ? 0 : random.logNormal(median: 350_000, sigma: 0.9)
        improvementValue.append(Int32(min((improvement / 100).rounded() * 100, 1_900_000_000)))

        var nearest = 0
        var best = Double.infinity
        for (position, center) in ParcelAttributes.cityCenters.enumerated() {
            let distance = (center.x - centerX) * (center.x - centerX) + (center.y - centerY) * (center.y - centerY)
            if distance < best {
                best = distance
                nearest = position
            }
        }
        city.append(UInt8(nearest))
    }

    /// Tax rate areas are patches: 600 m cells around the viewpoint drawn from a short list in which 10853
    /// and 10860 dominate, 1.5 km cells elsewhere drawn from a wide range.
    private func taxRate(centerX: Double, centerY: Double, nearViewpoint: Bool) -> Int32 {
        let cellSize = nearViewpoint ? 600.0 : 1_500.0
        let column = Int64((centerX / cellSize).rounded(.down))
        let row = Int64((centerY / cellSize).rounded(.down))
        let hash = SplitMix64.hash(seed ^ 0x5452_4131, UInt64(bitPattern: column &* 1_000_003 &+ row))
        if nearViewpoint {
            let table = ParcelAttributes.viewpointTaxRateAreas
            return table[Int(hash % UInt64(table.count))]
        }
        var code = Int32(100 + hash % 14_000)
        if code == 10853 || code == 10860 { code += 1 }
        return code
    }
}
