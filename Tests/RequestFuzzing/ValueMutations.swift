package import FeatureQuerySupport

/// Mutations on a parsed message: the document stays JSON but a value is replaced, removed, added or gets
/// another type, so the decoder's checks past the parser (types, ranges, unknown fields) are exercised.
package enum ValueMutations {
    /// Member names the contract uses anywhere, and one it does not.
    package static let names = [
        "requestId", "taskId", "deadline", "timeoutMs", "targets", "query", "credential", "cancel", "type", "url", "layers",
        "collection", "where", "namedWhere", "extent", "geometry", "spatialRelationship", "outFields", "returnGeometry",
        "outSpatialReference", "maxFeatures", "result", "xmin", "ymin", "xmax", "ymax", "spatialReference", "wkid", "x", "y",
        "rings", "coordinates", "objectIds", "time", "start", "end", "orderBy", "field", "direction", "statistics",
        "groupBy", "name", "percentile", "relationship", "id", "relatedWhere", "relatedOutFields", "relatedOrderBy", "progress", "bogus",
    ]

    /// A random value of any JSON type, with strings and numbers the contract gives meaning to.
    package static func randomValue(_ random: inout SplitMix64, depth: Int = 0) -> ParsedJSON {
        switch Int.random(in: 0...(depth > 2 ? 9 : 12), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number([0, -0.0, 1, -1, 0.5, 4326, 3857, 1e300, -180.5, 91, 2_147_483_648, 9_007_199_254_740_992][
            Int.random(in: 0...11, using: &random)])
        case 3: return .number(Double(Int.random(in: -1_000...100_000, using: &random)))
        case 4: return .string("")
        case 5: return .string(String(repeating: "a", count: Int.random(in: 1...200, using: &random)))
        case 6: return .string(["ids", "count", "features", "arcgis", "ogc", "intersects", "government", "UseType = 'x'",
                                 "2025-06-01T12:00:00Z", "2025-13-01T00:00:00Z", "https://h.example/a/MapServer",
                                 "https://h.example/a/FeatureServer/0", "ftp://x", "a\u{0}b", "é😀", "Point", "Polygon",
                                 "statistics", "extent", "distinct", "percentileCont", "desc", "sum", "*", "related",
                                 "attachments"][
            Int.random(in: 0...25, using: &random)])
        case 7, 8, 9: return .string("r-\(Int.random(in: 0...9, using: &random))")
        case 10: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var members: [String: ParsedJSON] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                members[names[Int.random(in: 0..<names.count, using: &random)]] = randomValue(&random, depth: depth + 1)
            }
            return .object(members)
        }
    }

    /// Changes one randomly chosen place of the document: replaces, removes or adds a value.
    package static func mutate(_ value: ParsedJSON, _ random: inout SplitMix64, depth: Int = 0) -> ParsedJSON {
        let descend = depth < 6 && Int.random(in: 0...3, using: &random) > 0
        switch value {
        case .object(var members) where !members.isEmpty && descend:
            let keys = members.keys.sorted()
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            members[key] = members[key].map { mutate($0, &random, depth: depth + 1) }
            return .object(members)
        case .array(var items) where !items.isEmpty && descend:
            let index = Int.random(in: 0..<items.count, using: &random)
            items[index] = mutate(items[index], &random, depth: depth + 1)
            return .array(items)
        case .object(var members):
            switch Int.random(in: 0...2, using: &random) {
            case 0 where !members.isEmpty:
                let keys = members.keys.sorted()
                members[keys[Int.random(in: 0..<keys.count, using: &random)]] = nil
            default:
                members[names[Int.random(in: 0..<names.count, using: &random)]] = randomValue(&random)
            }
            return .object(members)
        case .array(var items):
            switch Int.random(in: 0...2, using: &random) {
            case 0 where !items.isEmpty: items.remove(at: Int.random(in: 0..<items.count, using: &random))
            case 1 where !items.isEmpty: items.append(items[Int.random(in: 0..<items.count, using: &random)])
            default: items.append(randomValue(&random))
            }
            return .array(items)
        default:
            return randomValue(&random)
        }
    }
}
