import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Generates the Daraa look-alike in WGS 84 inside lon 35.90–36.57, lat 32.42–33.14: points scattered
/// around a few dozen settlements, curves as meandering paths, surfaces as small irregular polygons, each
/// with the Topographic Data Store fields the seed's service has. The same seed always gives the same
/// features; each collection draws from its own generator, so adding one does not change the others.
enum DaraaGenerator {
    /// The area the seed's service covers.
    static let bounds = Envelope(xmin: 35.90, ymin: 32.42, xmax: 36.57, ymax: 33.14, spatialReference: .wgs84)

    /// The fields of every Daraa collection, in order (OBJECTID first).
    static let fields: [FieldDefinition] = [
        FieldDefinition("OBJECTID", .objectID),
        FieldDefinition("F_CODE", .string, alias: "Feature Code", length: 5),
        FieldDefinition("ZI005_FNA", .string, alias: "Geographic Name Information : Full Name", length: 200),
        FieldDefinition("ZI001_SDV", .date, alias: "Source Information : Source Date and Time"),
        FieldDefinition("UFI", .string, alias: "Unique Entity Identifier", length: 36),
        FieldDefinition("FCSUBTYPE", .integer, alias: "Feature Code Subtype"),
        FieldDefinition("ZI006_MEM", .string, alias: "Note : Memorandum", length: 254),
    ]

    static let placeNames = [
        "Daraa", "Busra al-Harir", "Izra", "Nawa", "Jasim", "Tafas", "Al-Sanamayn", "Busra ash-Sham", "Da'el",
        "Inkhil", "Al-Harak", "Sheikh Maskin", "Muzayrib", "Al-Yadudah", "Khirbet Ghazaleh", "Al-Musayfirah",
        "Tell Shihab", "Nasib", "Umm al-Mayadhin", "Al-Jiza", "Ghabaghib", "Kafr Shams", "Al-Shajara", "Saida",
    ]

    /// Every collection's store, by collection.
    static func generate(seed: UInt64) throws -> [DaraaCollection: GenericFeatureStore] {
        var stores: [DaraaCollection: GenericFeatureStore] = [:]
        for (number, collection) in DaraaCollection.allCases.enumerated() {
            var random = SplitMix64(seed: SplitMix64.hash(seed ^ 0x4441_5241, UInt64(number)))
            stores[collection] = try generate(collection, random: &random)
        }
        return stores
    }

    private static func generate(_ collection: DaraaCollection, random: inout SplitMix64) throws -> GenericFeatureStore {
        var geometries: [Geometry] = []
        var columns: [[AttributeValue]] = Array(repeating: [], count: fields.count)
        let codes = collection.featureCodes
        for _ in 0..<collection.featureCount {
            let center = Position(rounded(random.uniform(bounds.xmin + 0.01, bounds.xmax - 0.01)),
                                  rounded(random.uniform(bounds.ymin + 0.01, bounds.ymax - 0.01)))
            geometries.append(geometry(collection.geometryType, around: center, random: &random))
            let code = codes[random.below(codes.count)]
            columns[1].append(.string(code.code))
            columns[2].append(.string(random.unit() < 0.7 ? "No Information" : placeNames[random.below(placeNames.count)] + " " + code.name))
            // 2014-01-01 .. 2024-01-01, whole seconds; about one in twenty without a source date.
            let start: Int64 = 1_388_534_400_000
            let seconds = Int64(random.below(315_532_800))
            columns[3].append(random.unit() < 0.05 ? .null : .date(start + seconds * 1_000))
            columns[4].append(.string(uuid(&random)))
            columns[5].append(.integer(random.unit() < 0.8 ? -999_999 : Int64(100 + random.below(900))))
            columns[6].append(random.unit() < 0.9 ? .null : .string("Imported from OpenStreetMap; \(code.name.lowercased())"))
        }
        return try GenericFeatureStore(geometries: geometries, columns: columns, spatialReference: .wgs84)
    }

    private static func geometry(_ type: GeometryType, around center: Position, random: inout SplitMix64) -> Geometry {
        switch type {
        case .polyline:
            var heading = random.uniform(0, 2 * Double.pi)
            var point = center
            var path = [point]
            for _ in 0..<(2 + random.below(8)) {
                heading += random.uniform(-0.5, 0.5)
                let step = random.uniform(0.001, 0.006)
                let next = Position(rounded(point.x + step * cos(heading)), rounded(point.y + step * sin(heading)))
                guard bounds.contains(next) else { break }
                point = next
                path.append(point)
            }
            if path.count < 2 { path.append(Position(rounded(center.x + 0.001), center.y)) }
            return .polyline(Polyline(paths: [path], spatialReference: .wgs84))
        case .polygon:
            // A clockwise ring (Esri's exterior orientation) of 4 to 9 vertices around the center.
            let vertices = 4 + random.below(6)
            let radius = random.uniform(0.0005, 0.004)
            var ring: [Position] = []
            for vertex in 0..<vertices {
                let angle = -2 * Double.pi * Double(vertex) / Double(vertices)
                let r = radius * random.uniform(0.6, 1.0)
                ring.append(Position(rounded(center.x + r * cos(angle)), rounded(center.y + r * sin(angle))))
            }
            ring.append(ring[0])
            return .polygon(Polygon(rings: [ring], spatialReference: .wgs84))
        default:
            return .point(Point(center, spatialReference: .wgs84))
        }
    }

    private static func rounded(_ value: Double) -> Double { (value * 1e7).rounded() / 1e7 }

    /// A random (version 4) UUID in lower case.
    private static func uuid(_ random: inout SplitMix64) -> String {
        let high = random.next()
        let low = random.next()
        let hex = Array("0123456789abcdef")
        var text = ""
        for position in 0..<32 {
            if [8, 12, 16, 20].contains(position) { text.append("-") }
            var nibble = Int((position < 16 ? high >> (60 - 4 * UInt64(position)) : low >> (60 - 4 * UInt64(position - 16))) & 0xF)
            if position == 12 { nibble = 4 }
            if position == 16 { nibble = 8 | (nibble & 3) }
            text.append(hex[nibble])
        }
        return text
    }
}
