#if canImport(QueryLanguage)
import QueryLanguage
#endif

/// Deterministic stand-ins for LA County parcels: OBJECTID, UseType, TaxRateArea, Roll_LandValue.
///
/// Use types follow a skewed mix (mostly residential), land values a wide spread with about a fifth
/// above 1,000,000, and one value in a hundred is NULL, so the three-valued logic is exercised too.
struct SyntheticParcels {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    static let useTypes = [
        "Residential", "Residential", "Residential", "Residential", "Residential", "Residential", "Commercial",
        "Industrial", "Government", "Irrigated Farm", "Dry Farm", "Vacant", "Recreational", "Institutional",
    ]
    static let taxRateAreas: [Int64] = [10853, 10860, 4, 7, 13, 5_421, 8_012]

    mutating func make(count: Int) -> [[AttributeValue]] {
        var records: [[AttributeValue]] = []
        records.reserveCapacity(count)
        for index in 0..<count {
            let useType: AttributeValue = next() % 100 == 0
                ? .null : .string(Self.useTypes[Int(next() % UInt64(Self.useTypes.count))])
            let taxRateArea = AttributeValue.integer(Self.taxRateAreas[Int(next() % UInt64(Self.taxRateAreas.count))])
            let landValue: AttributeValue = next() % 100 == 0 ? .null : .integer(Int64(next() % 3_000_000) + 10_000)
            records.append([.integer(Int64(index + 1)), useType, taxRateArea, landValue])
        }
        return records
    }

    /// SplitMix64.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
