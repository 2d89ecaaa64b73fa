import EngineExecution
import FeatureQuerySupport
import FeatureService

/// A collection streamed to the result store (``StoredLayerStream``): the collector re-checks and deduplicates
/// as always, and what it kept is handed to the writer after each page instead of held.
extension CheckedItemCollector {
    /// What is held now: kept features (or ids), in the order kept.
    var heldCount: Int { ids.count }

    /// The items kept from index `start` of what is held, as the store writes them: each feature's GeoJSON, or
    /// each id as a JSON value (a number, a string, or `null` for a feature without one).
    func items(from start: Int) -> [ArraySlice<UInt8>] {
        guard start < ids.count else { return [] }
        switch keep {
        case .features:
            return Array(json[start...])
        case .ids:
            return ids[start...].map(Self.json)
        case .nothing:
            return []
        }
    }

    /// Hands over everything held and holds nothing from now on (only the ids that deduplicate); what is kept
    /// later is no longer reserved from the result budget.
    mutating func stopHolding() -> [ArraySlice<UInt8>] {
        let held = items(from: 0)
        dropHeld()
        return held
    }

    /// An id as the JSON value a stored `ids` object holds.
    static func json(_ id: FeatureID?) -> ArraySlice<UInt8> {
        switch id {
        case .integer(let value)?: return StoredLayerStream.json(value)
        case .string(let value)?:
            var writer = JSONWriter(capacity: value.utf8.count + 2)
            writer.string(value)
            return writer.bytes[...]
        case nil: return Array("null".utf8)[...]
        }
    }
}
