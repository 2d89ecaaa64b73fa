import FeatureService
import FeatureQuerySupport
import QueryLanguage
import Testing

@testable import OGCEngine

/// The test's own reading of a collection: every feature fetched as plain GeoJSON, read without the engine's
/// aggregation code.
extension FeatureTableSampleTests {
    /// One raw feature: its id, properties and geometry's bounding box.
    struct Raw {
        var id: FeatureID?
        var properties: [String: ParsedJSON]
        var box: [Double]?
    }

    /// Every feature of `collection`, read as plain GeoJSON.
    static func raw(_ engine: OGCEngine, _ landing: String, _ collection: String) async throws -> [Raw] {
        let outcome = await SampleServerInteropTests.run(
            engine, landing, ServiceQuery(returnGeometry: true, maxFeatures: 100_000, result: .features), collection: collection)
        let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
        guard case .features(let list) = result.selection else { throw RawFailure.notFeatures }
        return try list.json.map { bytes in
            let feature = try ParsedJSON(reading: bytes)
            let id: FeatureID? = switch feature["id"] {
            case .number(let number)?: Int64(exactly: number).map(FeatureID.integer)
            case .string(let text)?: .string(text)
            default: nil
            }
            return Raw(id: id, properties: feature["properties"]?.objectValue ?? [:], box: box(feature["geometry"]?["coordinates"]))
        }
    }

    enum RawFailure: Error { case notFeatures }

    /// The box of nested coordinate arrays.
    static func box(_ coordinates: ParsedJSON?) -> [Double]? {
        guard let array = coordinates?.arrayValue else { return nil }
        if array.count >= 2, let x = array[0].numberValue, let y = array[1].numberValue { return [x, y, x, y] }
        var result: [Double]?
        for child in array {
            guard let inner = box(child) else { continue }
            result = result.map { [min($0[0], inner[0]), min($0[1], inner[1]), max($0[2], inner[2]), max($0[3], inner[3])] } ?? inner
        }
        return result
    }

    static func number(_ value: AttributeValue?) -> Double? {
        switch value {
        case .integer(let integer)?: Double(integer)
        case .double(let double)?: double
        default: nil
        }
    }

    static func close(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
    }
}

/// The test's own tie-break: integer ids before string ids, each by value.
struct OrderedFeatureIDKey: Comparable {
    var id: FeatureID?
    init(_ id: FeatureID?) { self.id = id }

    static func < (a: Self, b: Self) -> Bool {
        switch (a.id, b.id) {
        case (.integer(let x)?, .integer(let y)?): x < y
        case (.integer?, _): true
        case (.string(let x)?, .string(let y)?): Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
        default: false
        }
    }
}
