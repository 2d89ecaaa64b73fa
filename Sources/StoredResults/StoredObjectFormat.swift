/// How a stored result frames its features: one GeoJSON FeatureCollection, or newline-delimited GeoJSON (one
/// Feature per line, which a reader can stream and `split`/`jq` can process without holding the whole object).
package enum StoredObjectFormat: String, Sendable, Hashable, CaseIterable {
    case geojson
    case ndjson

    /// The object's `Content-Type`.
    package var contentType: String {
        switch self {
        case .geojson: "application/geo+json"
        case .ndjson: "application/x-ndjson"
        }
    }

    /// The object name's extension.
    package var fileExtension: String { rawValue }

    /// What comes before the first feature.
    var head: [UInt8] {
        switch self {
        case .geojson: Array(#"{"type":"FeatureCollection","features":["#.utf8)
        case .ndjson: []
        }
    }

    /// What comes between two features (GeoJSON) or after each (NDJSON: the line end).
    var separator: [UInt8] { self == .geojson ? [UInt8(ascii: ",")] : [] }

    /// What ends each feature.
    var terminator: [UInt8] { self == .ndjson ? [UInt8(ascii: "\n")] : [] }

    /// What comes after the last feature.
    var tail: [UInt8] {
        switch self {
        case .geojson: Array("]}\n".utf8)
        case .ndjson: []
        }
    }
}
