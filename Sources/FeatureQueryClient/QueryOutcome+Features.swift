import Foundation
import QueryOutcomes

extension QueryOutcome {
    /// Each layer's GeoJSON features (`result: features`), joined across the parts in part order, by layer URL.
    ///
    /// Features stay JSON: typing GeoJSON here would copy a geometry model the caller has its own of. Parsed
    /// only when a part has a `features` member, so an ids or count result is not read twice.
    static func featureCollections(_ parts: [[UInt8]]) -> [String: Data] {
        let marker = Array(#""features":"#.utf8)
        guard parts.contains(where: { $0.contains(marker) }) else { return [:] }
        // Reassembled as `query --reassembled` does; a part that is not JSON failed the typed reading already.
        guard let collections = try? OutcomeJSON.featureCollections(parts: parts) else { return [:] }
        return Dictionary(collections.map { ($0.url, Data($0.geoJSON.utf8)) }, uniquingKeysWith: { first, _ in first })
    }
}

extension [UInt8] {
    /// Whether `needle` occurs in these bytes.
    fileprivate func contains(_ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= count else { return false }
        var index = startIndex
        while let start = self[index...].firstIndex(of: first) {
            if start + needle.count > endIndex { return false }
            if self[start..<(start + needle.count)].elementsEqual(needle) { return true }
            index = start + 1
        }
        return false
    }
}
