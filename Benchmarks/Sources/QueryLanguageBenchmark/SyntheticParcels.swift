import FeatureQuerySupport
import QueryLanguage

/// Deterministic stand-ins for LA County parcels: OBJECTID, UseType, TaxRateArea, Roll_LandValue.
///
/// Use types follow a skewed mix (mostly residential), land values a wide spread with about a fifth
/// above 1,000,000, and one value in a hundred is NULL, so the three-valued logic is exercised too.
struct SyntheticParcels {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    static let useTypes = [
        "Residential", "Residential", "Residential", "Residential", "Residential", "Residential", "Commercial",
        "Industrial", "Government", "Irrigated Farm", "Dry Farm", "Vacant", "Recreational", "Institutional",
    ]
    static let taxRateAreas: [Int64] = [10853, 10860, 4, 7, 13, 5_421, 8_012]

    mutating func make(count: Int) -> [[AttributeValue]] {
        var records: [[AttributeValue]] = []
        records.reserveCapacity(count)
        for index in 0..<count {
            let useType: AttributeValue = random.next() % 100 == 0
                ? .null : .string(Self.useTypes[Int(random.next() % UInt64(Self.useTypes.count))])
            let taxRateArea = AttributeValue.integer(Self.taxRateAreas[Int(random.next() % UInt64(Self.taxRateAreas.count))])
            let landValue: AttributeValue = random.next() % 100 == 0 ? .null : .integer(Int64(random.next() % 3_000_000) + 10_000)
            records.append([.integer(Int64(index + 1)), useType, taxRateArea, landValue])
        }
        return records
    }
}
