import EngineExecution
import FeatureQuerySupport

extension CollectionMetadata {
    /// A collection of a `/collections` page; nil without an `id`.
    init?(
        _ json: ParsedJSON, landing: String, collectionsURL: String, responseURL: String, sharedCRS: [String],
        conformance: Conformance
    ) {
        guard let id = json["id"]?.stringValue, !id.isEmpty else { return nil }
        let links = Link.links(of: json)
        let encoded = PathSegment.encode(id)
        let base = collectionsURL.hasSuffix("/") ? String(collectionsURL.dropLast()) : collectionsURL
        let served = Link.best(links, rel: ["self"]).map { URIReference.resolve($0.href, against: responseURL) }
        let home = served.map { URIReference($0).resolving(URIReference("")).text }.map(PathSegment.withoutQuery) ?? base + "/" + encoded
        let items = Link.best(links, rel: ["items"]).map { URIReference.resolve($0.href, against: responseURL) }
        let queryables = Link.best(links, rel: ["queryables", "http://www.opengis.net/def/rel/ogc/1.0/queryables"])
            .map { URIReference.resolve($0.href, against: responseURL) }
        var crs: [String] = []
        for entry in (json["crs"]?.arrayValue ?? []).compactMap(\.stringValue) {
            if entry == "#/crs" { crs += sharedCRS } else { crs.append(entry) }
        }
        self.init(
            id: id, title: json["title"]?.stringValue, description: json["description"]?.stringValue,
            url: landing + "/collections/" + encoded, itemsURL: items ?? home + "/items",
            extent: Self.spatialExtent(json["extent"]), temporalExtent: Self.temporalExtent(json["extent"]),
            itemType: json["itemType"]?.stringValue ?? "feature", crs: crs.isEmpty ? [CRS84.uri] : crs,
            storageCrs: json["storageCrs"]?.stringValue,
            queryablesURL: queryables ?? (conformance.supportsQueryables ? home + "/queryables" : nil))
    }

    /// The overall box (the first), in CRS84; nil when absent, unreadable or in another CRS.
    static func spatialExtent(_ extent: ParsedJSON?) -> [Double]? {
        guard let spatial = extent?["spatial"] else { return nil }
        if let crs = spatial["crs"]?.stringValue, !CRS84.isCRS84(crs) { return nil }
        guard let boxes = spatial["bbox"]?.arrayValue, let first = boxes.first?.arrayValue else { return nil }
        let numbers = first.compactMap(\.numberValue)
        switch numbers.count {
        case 4: return numbers
        case 6: return [numbers[0], numbers[1], numbers[3], numbers[4]]
        default: return nil
        }
    }

    static func temporalExtent(_ extent: ParsedJSON?) -> [String?]? {
        guard let interval = extent?["temporal"]?["interval"]?.arrayValue?.first?.arrayValue, interval.count == 2 else { return nil }
        return interval.map(\.stringValue)
    }
}

/// Path segments as URLs carry them.
enum PathSegment {
    /// `text` percent-encoded for one path segment: unreserved characters and sub-delimiters kept.
    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~!$&'()*+,;=:@".contains(character) {
                output.append(character)
            } else {
                output += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return output
    }

    static func withoutQuery(_ url: String) -> String {
        var reference = URIReference(url)
        reference.query = nil
        reference.fragment = nil
        return reference.text.hasSuffix("/") ? String(reference.text.dropLast()) : reference.text
    }
}
