import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Generates the USA map service's layers over the conterminous United States, in WGS 84: states as
/// rectangles from a k-d partition of the country around the real states' centers (each state's box holds
/// its real center), counties by subdividing each state in proportion to its area (about 3,100 in all),
/// about 3,500 cities inside the states, and a few hundred highways as meandering polylines. Coordinates
/// are rounded to 1e-6 degrees.
struct USAGenerator {
    struct Layers: Sendable {
        let cities: GenericFeatureStore
        let highways: GenericFeatureStore
        let states: GenericFeatureStore
        let counties: GenericFeatureStore
    }

    /// The conterminous United States: 124.7–66.9 W, 24.5–49.4 N.
    static let bounds = Envelope(xmin: -124.7, ymin: 24.5, xmax: -66.9, ymax: 49.4, spatialReference: .wgs84)

    private var random: SplitMix64
    private var stateBoxes: [(state: USANames.State, box: Envelope)] = []

    static func generate(seed: UInt64) throws -> Layers {
        var generator = USAGenerator(random: SplitMix64(seed: seed ^ 0x5553_4100))
        generator.partition(Array(USANames.states), Self.bounds)
        generator.stateBoxes.sort { $0.state.name < $1.state.name }
        return Layers(
            cities: try generator.cities(count: 3_500),
            highways: try generator.highways(count: 300),
            states: try generator.states(),
            counties: try generator.counties(total: 3_100))
    }

    private static func rounded(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }

    private static func ring(_ box: Envelope) -> [Position] {
        let (x0, y0, x1, y1) = (rounded(box.xmin), rounded(box.ymin), rounded(box.xmax), rounded(box.ymax))
        return [Position(x0, y0), Position(x0, y1), Position(x1, y1), Position(x1, y0), Position(x0, y0)]
    }

    /// Splits `box` between `states` by their centers along its longer side, until each has its own box.
    private mutating func partition(_ states: [USANames.State], _ box: Envelope) {
        guard states.count > 1 else {
            if let state = states.first { stateBoxes.append((state, box)) }
            return
        }
        let alongX = box.width * cos(box.center.y * .pi / 180) >= box.height
        let sorted = states.sorted { alongX ? $0.longitude < $1.longitude : $0.latitude < $1.latitude }
        let half = sorted.count / 2
        let a = alongX ? sorted[half - 1].longitude : sorted[half - 1].latitude
        let b = alongX ? sorted[half].longitude : sorted[half].latitude
        let cut = Self.rounded((a + b) / 2)
        var low = box
        var high = box
        if alongX {
            low.xmax = cut
            high.xmin = cut
        } else {
            low.ymax = cut
            high.ymin = cut
        }
        partition(Array(sorted[..<half]), low)
        partition(Array(sorted[half...]), high)
    }

    private func states() throws -> GenericFeatureStore {
        var geometries: [Geometry] = []
        var columns: [[AttributeValue]] = [[], [], [], [], []]
        for (state, box) in stateBoxes {
            geometries.append(.polygon(Polygon(rings: [Self.ring(box)], spatialReference: .wgs84)))
            columns[1].append(.string(state.name))
            columns[2].append(.string(state.abbreviation))
            columns[3].append(.string(state.fips))
            columns[4].append(.integer(Int64(state.population)))
        }
        return try GenericFeatureStore(geometries: geometries, columns: columns, spatialReference: .wgs84)
    }

    private mutating func counties(total: Int) throws -> GenericFeatureStore {
        let totalArea = stateBoxes.reduce(0) { $0 + $1.box.width * $1.box.height }
        var geometries: [Geometry] = []
        var columns: [[AttributeValue]] = [[], [], [], [], []]
        for (state, box) in stateBoxes {
            let count = state.abbreviation == "DC" ? 1 : max(1, Int((Double(total) * box.width * box.height / totalArea).rounded()))
            var boxes: [Envelope] = []
            subdivide(box, count, into: &boxes)
            let shares = boxes.map { _ in random.logNormal(median: 1, sigma: 1.0) }
            let shareTotal = shares.reduce(0, +)
            var names = USANames.countyNames.shuffled(using: &random)
            while names.count < boxes.count { names.append(cityName()) }
            for (position, county) in boxes.enumerated() {
                geometries.append(.polygon(Polygon(rings: [Self.ring(county)], spatialReference: .wgs84)))
                columns[1].append(.string(names[position]))
                columns[2].append(.string(state.name))
                columns[3].append(.string(state.fips + String(format3(2 * position + 1))))
                columns[4].append(.integer(Int64((Double(state.population) * shares[position] / shareTotal).rounded())))
            }
        }
        return try GenericFeatureStore(geometries: geometries, columns: columns, spatialReference: .wgs84)
    }

    private mutating func subdivide(_ box: Envelope, _ count: Int, into boxes: inout [Envelope]) {
        guard count > 1 else {
            boxes.append(box)
            return
        }
        let alongX = box.width >= box.height
        let t = 0.35 + 0.3 * random.unit()
        let leftCount = min(max(Int((Double(count) * t).rounded()), 1), count - 1)
        let fraction = Double(leftCount) / Double(count)
        var low = box
        var high = box
        if alongX {
            let cut = Self.rounded(box.xmin + box.width * fraction)
            low.xmax = cut
            high.xmin = cut
        } else {
            let cut = Self.rounded(box.ymin + box.height * fraction)
            low.ymax = cut
            high.ymin = cut
        }
        subdivide(low, leftCount, into: &boxes)
        subdivide(high, count - leftCount, into: &boxes)
    }

    private mutating func cities(count: Int) throws -> GenericFeatureStore {
        let weights = stateBoxes.map { pow(Double($0.state.population), 0.8) }
        let weightTotal = weights.reduce(0, +)
        var geometries: [Geometry] = []
        var columns: [[AttributeValue]] = [[], [], [], []]
        for (position, (state, box)) in stateBoxes.enumerated() {
            let cities = max(2, Int((Double(count) * weights[position] / weightTotal).rounded()))
            for _ in 0..<cities {
                let x = Self.rounded(random.uniform(box.xmin, box.xmax))
                let y = Self.rounded(random.uniform(box.ymin, box.ymax))
                geometries.append(.point(Point(x: x, y: y, spatialReference: .wgs84)))
                columns[1].append(.string(cityName()))
                columns[2].append(.string(state.abbreviation))
                let population = random.logNormal(median: 9_000, sigma: 1.3)
                columns[3].append(.integer(Int64(min(max(population, 500), 8_000_000).rounded())))
            }
        }
        return try GenericFeatureStore(geometries: geometries, columns: columns, spatialReference: .wgs84)
    }

    private mutating func highways(count: Int) throws -> GenericFeatureStore {
        var geometries: [Geometry] = []
        var columns: [[AttributeValue]] = [[], [], [], [], []]
        let bounds = Self.bounds
        for number in 0..<count {
            let interstate = number < USANames.interstates.count
            let route = interstate ? USANames.interstates[number] : 1 + random.below(99)
            let eastWest = route % 2 == 0
            var heading = eastWest ? (random.unit() < 0.5 ? 0 : Double.pi) : (random.unit() < 0.5 ? Double.pi / 2 : -Double.pi / 2)
            var x = random.uniform(bounds.xmin + 2, bounds.xmax - 2)
            var y = random.uniform(bounds.ymin + 2, bounds.ymax - 2)
            var path = [Position(Self.rounded(x), Self.rounded(y))]
            var miles = 0.0
            for _ in 0..<(6 + random.below(30)) {
                heading += random.uniform(-0.35, 0.35)
                let step = random.uniform(0.3, 1.2)
                let nextX = x + step * cos(heading)
                let nextY = y + step * sin(heading)
                guard bounds.contains(Position(nextX, nextY)) else { break }
                miles += step * 69 * (0.5 + 0.5 * abs(sin(heading)))
                x = nextX
                y = nextY
                path.append(Position(Self.rounded(x), Self.rounded(y)))
            }
            if path.count < 2 { path.append(Position(Self.rounded(x + 0.1), Self.rounded(y))) }
            geometries.append(.polyline(Polyline(paths: [path], spatialReference: .wgs84)))
            let type = interstate ? "Interstate" : (random.unit() < 0.7 ? "US Route" : "State Route")
            columns[1].append(.string(interstate ? "I-\(route)" : (type == "US Route" ? "US \(route)" : "SR \(route)")))
            columns[2].append(.string(type))
            columns[3].append(.double((miles * 10).rounded() / 10))
            columns[4].append(.integer(Int64(random.logNormal(median: 400_000, sigma: 1).rounded())))
        }
        return try GenericFeatureStore(geometries: geometries, columns: columns, spatialReference: .wgs84)
    }

    private mutating func cityName() -> String {
        USANames.namePrefixes[random.below(USANames.namePrefixes.count)]
            + USANames.nameSuffixes[random.below(USANames.nameSuffixes.count)]
    }

    private func format3(_ value: Int) -> String {
        let text = String(value % 1000)
        return String(repeating: "0", count: 3 - text.count) + text
    }
}
