import Foundation

/// The raw JSON of an outcome, for `--reassembled`: the message itself when it came whole, else the parts
/// put back together as the contract's reference `reassemble` does (features included), with `part` and
/// `parts` 1. Shared by `query --reassembled` and the client library's GeoJSON features.
package enum OutcomeJSON {
    package static func text(parts: [[UInt8]]) throws -> String {
        if parts.count == 1, let only = parts.first { return String(decoding: only, as: UTF8.self) }
        let data = try JSONSerialization.data(withJSONObject: try whole(parts: parts), options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// Each succeeded layer's features as GeoJSON FeatureCollection text, by layer URL, in layer order.
    package static func featureCollections(parts: [[UInt8]]) throws -> [(url: String, geoJSON: String)] {
        let layers = try whole(parts: parts)["layers"] as? [[String: Any]] ?? []
        return try layers.compactMap { layer in
            guard let url = layer["url"] as? String, let features = layer["features"] else { return nil }
            let data = try JSONSerialization.data(withJSONObject: features, options: [.sortedKeys, .withoutEscapingSlashes])
            return (url, String(decoding: data, as: UTF8.self))
        }
    }

    /// The whole outcome as `JSONSerialization` objects.
    package static func whole(parts: [[UInt8]]) throws -> [String: Any] {
        var whole: [String: Any] = [:]
        var layers: [[String: Any]] = []
        var index: [String: Int] = [:]
        for bytes in parts {
            guard let message = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                throw OutcomeDecodingError(message: "a result part is not a JSON object")
            }
            if whole.isEmpty { whole = message }
            for entry in message["layers"] as? [[String: Any]] ?? [] {
                let url = entry["url"] as? String ?? ""
                guard let position = index[url] else {
                    index[url] = layers.count
                    layers.append(entry)
                    continue
                }
                for name in ["objectIds", "featureIds", "catalog", "statistics", "distinct"] {
                    if let items = entry[name] as? [Any] {
                        layers[position][name] = (layers[position][name] as? [Any] ?? []) + items
                    }
                }
                for (name, member) in [("related", "records"), ("attachments", "attachments")] {
                    if let groups = entry[name] as? [[String: Any]] {
                        layers[position][name] = continued(layers[position][name] as? [[String: Any]] ?? [], groups, member)
                    }
                }
                if let features = (entry["features"] as? [String: Any])?["features"] as? [Any],
                    var collection = layers[position]["features"] as? [String: Any]
                {
                    collection["features"] = (collection["features"] as? [Any] ?? []) + features
                    layers[position]["features"] = collection
                }
            }
        }
        whole["layers"] = layers
        whole["part"] = 1
        whole["parts"] = 1
        return whole
    }

    /// `earlier` groups (related records or attachments per feature) followed by a later part's `groups`: a
    /// first group with the `objectId` of the last one continues it (its `member` array appended), as the
    /// worker splits a group too large for one part.
    package static func continued(_ earlier: [[String: Any]], _ groups: [[String: Any]], _ member: String) -> [[String: Any]] {
        var earlier = earlier
        var groups = groups[...]
        if let last = earlier.last, let first = groups.first, let id = last["objectId"] as? Int64,
            first["objectId"] as? Int64 == id
        {
            earlier[earlier.count - 1][member] = (last[member] as? [Any] ?? []) + (first[member] as? [Any] ?? [])
            groups = groups.dropFirst()
        }
        return earlier + groups
    }
}
