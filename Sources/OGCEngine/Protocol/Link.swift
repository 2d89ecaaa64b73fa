import FeatureQuerySupport

/// One entry of a document's `links`: where it points, how it relates, and as what media type.
struct Link: Hashable, Sendable {
    var href: String
    var rel: String
    var type: String?

    /// The links of a document (`links` array); entries without `href` or `rel` are skipped.
    static func links(of document: ParsedJSON) -> [Link] {
        (document["links"]?.arrayValue ?? []).compactMap { item in
            guard let href = item["href"]?.stringValue, let rel = item["rel"]?.stringValue else { return nil }
            return Link(href: href, rel: rel, type: item["type"]?.stringValue)
        }
    }

    /// How much a link of this media type is wanted for JSON data: GeoJSON first, then JSON, then an untyped
    /// link; nil for anything else (HTML above all: following it gives a page, not data).
    static func jsonPreference(_ type: String?) -> Int? {
        guard let type else { return 2 }
        let media = type.split(separator: ";").first.map { $0.trimmingCharacters() } ?? ""
        switch media {
        case "application/geo+json": return 0
        case "application/json", "application/schema+json", "application/vnd.oai.openapi+json": return 1
        case "": return 2
        default: return media.hasSuffix("+json") ? 1 : nil
        }
    }

    /// The best link with `rel` (compared case-insensitively, IANA short names or their full URIs) for JSON.
    static func best(_ links: [Link], rel wanted: [String]) -> Link? {
        let candidates = links.filter { link in
            let rel = link.rel.lowercased()
            return wanted.contains { rel == $0 || rel.hasSuffix("/" + $0) }
        }
        return candidates
            .compactMap { link in jsonPreference(link.type).map { (link, $0) } }
            .min { $0.1 < $1.1 }?.0
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs, lower-cased.
    func trimmingCharacters() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last].lowercased()
    }
}
