/// A feature's id as an OGC API Features server gave it.
///
/// The type is kept: `1` and `"1"` are different ids (a server may mix them, and deduplication must not merge
/// them). ArcGIS object ids stay `Int64` (``LayerSelection/objectIds(_:)``): they are always integers, and a
/// flat integer array is what the ArcGIS hot path needs.
package enum FeatureID: Hashable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case string(String)

    package var description: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): "\"\(value)\""
        }
    }
}
