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

    /// How features (or ids) of `content` are framed in this format.
    func framing(_ content: StoredObjectContent) -> StoredObjectFraming {
        switch (self, content) {
        case (.geojson, .features):
            StoredObjectFraming(head: Array(#"{"type":"FeatureCollection","features":["#.utf8), separator: [UInt8(ascii: ",")], terminator: [], tail: Array("]}\n".utf8))
        case (.geojson, .ids):
            StoredObjectFraming(head: [UInt8(ascii: "[")], separator: [UInt8(ascii: ",")], terminator: [], tail: Array("]\n".utf8))
        case (.ndjson, _):
            StoredObjectFraming(head: [], separator: [], terminator: [UInt8(ascii: "\n")], tail: [])
        }
    }

    /// The object's `Content-Type` for `content`: an ids array is plain JSON, not GeoJSON.
    package func contentType(for content: StoredObjectContent) -> String {
        self == .geojson && content == .ids ? "application/json" : contentType
    }
}

/// What a stored object holds: GeoJSON Features, or a layer's ids (JSON numbers or strings).
package enum StoredObjectContent: String, Sendable, Hashable {
    case features
    case ids
}

/// The bytes around and between items: a FeatureCollection's head and tail, an ids array's brackets, NDJSON's
/// line ends. Computed once per writer, so appending an item costs no `switch`.
struct StoredObjectFraming: Sendable, Hashable {
    /// What comes before the first item.
    var head: [UInt8]
    /// What comes between two items.
    var separator: [UInt8]
    /// What ends each item (NDJSON: the line end).
    var terminator: [UInt8]
    /// What comes after the last item.
    var tail: [UInt8]
}
