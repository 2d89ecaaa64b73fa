import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage

/// The value tables behind the parcel attributes, and the attributes derived on demand from a parcel's
/// position in the dataset (APN, year built, last sale date), which cost no memory.
enum ParcelAttributes {
    /// Los Angeles County assessor use types, as the `UseType` field spells them.
    static let useTypes = [
        "Residential", "Commercial", "Industrial", "Government", "Irrigated Farm", "Recreational",
        "Institutional", "Miscellaneous", "Dry Farm",
    ]
    /// Cumulative weights (out of 1000) of ``useTypes`` for small urban lots and for large rural ones.
    static let urbanWeights = cumulative([640, 95, 45, 40, 25, 30, 35, 60, 30])
    static let ruralWeights = cumulative([420, 40, 40, 90, 150, 50, 30, 120, 60])

    /// Tax rate areas around the viewpoint: 10853 and 10860 hold about two sevenths each.
    static let viewpointTaxRateAreas: [Int32] = [10853, 10853, 10860, 10860, 10854, 10857, 10861]

    /// Situs cities with their centers (longitude, latitude); a parcel takes the nearest.
    static let cities: [(name: String, longitude: Double, latitude: Double)] = [
        ("MALIBU", -118.78, 34.03), ("CALABASAS", -118.64, 34.14), ("AGOURA HILLS", -118.76, 34.15),
        ("WESTLAKE VILLAGE", -118.81, 34.14), ("TOPANGA", -118.60, 34.09), ("SANTA MONICA", -118.49, 34.02),
        ("LOS ANGELES", -118.25, 34.05), ("BEVERLY HILLS", -118.40, 34.07), ("CULVER CITY", -118.40, 34.02),
        ("INGLEWOOD", -118.35, 33.96), ("TORRANCE", -118.34, 33.84), ("LONG BEACH", -118.19, 33.77),
        ("COMPTON", -118.22, 33.90), ("DOWNEY", -118.13, 33.94), ("WHITTIER", -118.03, 33.98),
        ("PASADENA", -118.14, 34.15), ("GLENDALE", -118.25, 34.14), ("BURBANK", -118.31, 34.18),
        ("SANTA CLARITA", -118.54, 34.39), ("LANCASTER", -118.15, 34.69), ("PALMDALE", -118.12, 34.58),
        ("POMONA", -117.75, 34.06), ("WEST COVINA", -117.94, 34.07), ("EL MONTE", -118.03, 34.07),
        ("NORWALK", -118.08, 33.91), ("CARSON", -118.28, 33.83), ("VAN NUYS", -118.45, 34.19),
        ("CHATSWORTH", -118.60, 34.26),
    ]
    static let cityCenters: [Position] = cities.map { WebMercator.project(longitude: $0.longitude, latitude: $0.latitude) }

    /// Attribute values shared by every parcel that has them (one string storage each).
    static let useTypeValues: [AttributeValue] = useTypes.map { .string($0) }
    static let cityValues: [AttributeValue] = cities.map { .string($0.name) }
    /// The same, as quoted JSON string literals.
    static let useTypeJSON = ByteTable(quoting: useTypes)
    static let cityJSON = ByteTable(quoting: cities.map(\.name))

    static func cumulative(_ weights: [Int]) -> [Int] {
        var sum = 0
        return weights.map { weight in
            sum += weight
            return sum
        }
    }

    /// Picks an index by cumulative weights out of 1000.
    static func pick(_ cumulative: [Int], _ draw: Int) -> Int {
        for (index, bound) in cumulative.enumerated() where draw < bound { return index }
        return cumulative.count - 1
    }

    /// The assessor parcel number of a parcel: `BBBB-PPP-NNN` (map book, page, parcel), unique per index.
    static func apn(_ index: Int) -> String {
        let book = 4000 + index / 50_000
        let page = (index % 50_000) / 50
        let parcel = index % 50 + 1
        return "\(book)-\(pad3(page))-\(pad3(parcel))"
    }

    /// The parcel index whose APN is exactly `text`, or nil (the inverse of ``apn(_:)``).
    static func index(ofAPN text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let book = Int(parts[0]), let page = Int(parts[1]), let parcel = Int(parts[2]),
            (4000..<54_000).contains(book), (0..<1000).contains(page), (1...50).contains(parcel)
        else { return nil }
        let index = (book - 4000) * 50_000 + page * 50 + parcel - 1
        return apn(index) == text ? index : nil
    }

    /// Writes the APN as a JSON string without building a String.
    static func writeAPN(_ index: Int, to json: inout JSONWriter) {
        let book = 4000 + index / 50_000
        let page = (index % 50_000) / 50
        let parcel = index % 50 + 1
        json.byte(UInt8(ascii: "\""))
        json.integer(book)
        json.byte(UInt8(ascii: "-"))
        json.byte(UInt8(truncatingIfNeeded: page / 100) + 48)
        json.byte(UInt8(truncatingIfNeeded: page / 10 % 10) + 48)
        json.byte(UInt8(truncatingIfNeeded: page % 10) + 48)
        json.byte(UInt8(ascii: "-"))
        json.byte(UInt8(truncatingIfNeeded: parcel / 100) + 48)
        json.byte(UInt8(truncatingIfNeeded: parcel / 10 % 10) + 48)
        json.byte(UInt8(truncatingIfNeeded: parcel % 10) + 48)
        json.byte(UInt8(ascii: "\""))
    }

    private static func pad3(_ value: Int) -> String {
        value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }

    /// Year built, or nil for parcels without improvements.
    static func yearBuilt(seed: UInt64, index: Int, improved: Bool) -> Int? {
        guard improved else { return nil }
        return 1905 + Int(SplitMix64.hash(seed ^ 0x5945_4152, UInt64(index)) % 119)
    }

    /// Last sale date in epoch milliseconds (1975–2024), or nil for about one parcel in eight.
    static func lastSaleDate(seed: UInt64, index: Int) -> Int64? {
        let hash = SplitMix64.hash(seed ^ 0x5341_4C45, UInt64(index))
        guard hash % 100 >= 12 else { return nil }
        let firstDay: UInt64 = 1826  // 1975-01-01
        let days = firstDay + (hash >> 8) % (20_089 - firstDay)
        return Int64(days) * 86_400_000
    }
}
