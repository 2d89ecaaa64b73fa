import FeatureService
import FeatureGeometry
import FeatureQuerySupport

extension RequestDecoder {
    /// `targets`: 1 to ``RequestLimits/maxTargets`` distinct ArcGIS layers or services, or OGC collections
    /// (landing pages without `collection` only in a catalog request, checked by ``checkCollections(_:result:)``),
    /// naming at most ``RequestLimits/maxLayers`` layers together.
    package func readTargets(_ reader: RequestFieldReader) throws(ContractError) -> [QueryTarget] {
        guard let items = try reader.array("targets", required: true) else { return [] }
        guard !items.isEmpty else {
            throw ContractError.at("targets", .noTargets, "the array is empty; name 1 to \(limits.maxTargets) layers or services")
        }
        guard items.count <= limits.maxTargets else {
            throw ContractError.at(
                "targets", .tooManyTargets,
                "\(items.count) targets; a request may name at most \(limits.maxTargets) (split it into several requests)",
                details: ["count": .number(Double(items.count)), "limit": .number(Double(limits.maxTargets))])
        }
        var targets: [QueryTarget] = []
        for (index, item) in items.enumerated() {
            let target = try readTarget(item, path: "targets[\(index)]")
            if let earlier = targets.firstIndex(where: { Self.sameTarget($0, target) }) {
                throw ContractError.at("targets[\(index)]", .invalidValue, "repeats targets[\(earlier)]")
            }
            targets.append(target)
        }
        try checkLayerCount(targets)
        return targets
    }

    /// The layers the targets name together, within ``RequestLimits/maxLayers``: each `layers` list counts its
    /// ids, anything else one (a whole service is bounded again by the engine once its layer list is known).
    private func checkLayerCount(_ targets: [QueryTarget]) throws(ContractError) {
        let count = targets.reduce(0) { total, target in
            if case .arcgis(_, let layers?) = target { return total + layers.count }
            return total + 1
        }
        guard count > limits.maxLayers else { return }
        throw ContractError.at(
            "targets", .tooManyLayers,
            "the targets name \(count) layers; this worker queries at most \(limits.maxLayers) per request (split it into "
                + "several requests)",
            details: ["count": .number(Double(count)), "limit": .number(Double(limits.maxLayers))])
    }

    private func readTarget(_ value: ParsedJSON, path: String) throws(ContractError) -> QueryTarget {
        let reader = try RequestFieldReader(value, path: path)
        guard let type = try reader.string("type", required: true, length: 0...Int.max) else {
            throw ContractError(.internal, "type was not read")
        }
        switch type {
        case "arcgis":
            try reader.rejectUnknown(allowed: ["type", "url", "layers"])
            let url = try cachedArcGISURL(reader)
            guard let items = try reader.array("layers") else { return .arcgis(url: url.text, layers: nil) }
            if url.isLayer {
                throw ContractError.at(
                    reader.childPath("layers"), .invalidValue,
                    "\(url.text) is a layer URL; layers lists sublayers of a service URL (…/MapServer or …/FeatureServer)")
            }
            return .arcgis(url: url.text, layers: try Self.layerIds(items, path: reader.childPath("layers")))
        case "ogc":
            try reader.rejectUnknown(allowed: ["type", "url", "collection"])
            let url = try Self.httpURL(reader)
            // Required except in a catalog request: checked once the query's result kind is known.
            guard let collection = try reader.string("collection", length: 1...256) else {
                return .ogc(url: url, collection: nil)
            }
            guard Self.isPrintableASCII(collection), !collection.utf8.contains(where: { "/?#".utf8.contains($0) }) else {
                throw ContractError.at(
                    reader.childPath("collection"), .invalidValue,
                    "\"\(RequestFieldReader.excerpt(collection))\" is not a collection id (printable ASCII without / ? #)")
            }
            return .ogc(url: url, collection: collection)
        default:
            throw ContractError.at(
                reader.childPath("type"), .invalidValue,
                "\"\(RequestFieldReader.excerpt(type))\" is not a target type; expected \"arcgis\" or \"ogc\"")
        }
    }

    /// Every `ogc` target names its collection, except in a `result: catalog` request, where a landing page
    /// alone means "list its collections".
    package static func checkCollections(_ targets: [QueryTarget], result: QuerySpec.ResultKind) throws(ContractError) {
        guard result != .catalog else { return }
        for (index, target) in targets.enumerated() {
            guard case .ogc(_, nil) = target else { continue }
            throw ContractError.at(
                "targets[\(index)].collection", .missingField,
                "an ogc target names the collection to query; only a result: catalog request may name a landing page "
                    + "alone (to list its collections)")
        }
    }

    private static func layerIds(_ items: [ParsedJSON], path: String) throws(ContractError) -> [Int] {
        guard (1...RequestLimits.maxLayersPerTarget).contains(items.count) else {
            throw ContractError.at(
                path, .invalidValue,
                items.isEmpty ? "is empty; omit layers to query every feature layer of the service"
                    : "lists \(items.count) layers; at most \(RequestLimits.maxLayersPerTarget)")
        }
        var ids: [Int] = []
        for (index, item) in items.enumerated() {
            let id = Int(try RequestFieldReader.integer(item, path: "\(path)[\(index)]", in: 0...2_147_483_647))
            if let earlier = ids.firstIndex(of: id) {
                throw ContractError.at("\(path)[\(index)]", .invalidValue, "repeats layer \(id) of \(path)[\(earlier)]")
            }
            ids.append(id)
        }
        return ids
    }

    // MARK: URLs

    /// ``arcGISURL(_:)``, answered from ``cache`` for a `url` text accepted before.
    private func cachedArcGISURL(_ reader: RequestFieldReader) throws(ContractError) -> DecodedTextCache.ArcGISURL {
        guard case .string(let raw)? = reader.members["url"] else { return try Self.arcGISURL(reader) }
        if let known = cache.arcGISURL(raw) { return known }
        let url = try Self.arcGISURL(reader)
        cache.store(arcGISURL: url, for: raw)
        return url
    }

    /// An ArcGIS REST URL: `http(s)://host[:port]/…/FeatureServer` or `…/MapServer`, optionally followed by a
    /// layer id, nothing else (no query string: tokens never travel in target URLs). Returned without the
    /// trailing slash.
    package static func arcGISURL(_ reader: RequestFieldReader) throws(ContractError) -> (text: String, isLayer: Bool) {
        let text = try httpURL(reader)
        // The last two path segments, read in place: a server segment, or a server segment and a layer id.
        let bytes = text.utf8
        let pathStart = bytes.dropFirst(text.hasPrefix("https://") ? 8 : 7).firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        let path = bytes[pathStart...]
        let lastSlash = path.lastIndex(of: UInt8(ascii: "/"))
        let last = lastSlash.map { path[path.index(after: $0)...] } ?? path[path.endIndex...]
        let isServer = { (segment: Substring.UTF8View.SubSequence) in
            segment.elementsEqual("FeatureServer".utf8) || segment.elementsEqual("MapServer".utf8)
        }
        if isServer(last) { return (text, false) }
        let isLayerId = !last.isEmpty && last.count <= 9 && last.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        if isLayerId, let lastSlash, let previousSlash = path[..<lastSlash].lastIndex(of: UInt8(ascii: "/")),
            isServer(path[path.index(after: previousSlash)..<lastSlash])
        {
            return (text, true)
        }
        throw ContractError.at(
            reader.childPath("url"), .invalidURL,
            "\(RequestFieldReader.excerpt(text, limit: 200)) is not an ArcGIS FeatureServer or MapServer URL: expected "
                + "…/FeatureServer or …/MapServer, optionally followed by a layer id (…/FeatureServer/0)")
    }

    /// An `http://` or `https://` URL of printable ASCII with a host, no user info, no query string or fragment
    /// and no empty path segment; returned without a trailing slash.
    package static func httpURL(_ reader: RequestFieldReader) throws(ContractError) -> String {
        let path = reader.childPath("url")
        guard var text = try reader.string("url", required: true, length: 1...2048) else {
            throw ContractError(.internal, "url was not read")
        }
        let original = text
        var shown: String { RequestFieldReader.excerpt(original, limit: 200) }  // for errors only
        guard isPrintableASCII(text) else {
            throw ContractError.at(path, .invalidURL, "\(shown) contains a space or a character outside ASCII; percent-encode it")
        }
        let scheme: Int
        if text.hasPrefix("https://") { scheme = 8 } else if text.hasPrefix("http://") { scheme = 7 } else {
            throw ContractError.at(path, .invalidURL, "\(shown) is not an http:// or https:// URL")
        }
        if text.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            throw ContractError.at(
                path, .invalidURL,
                "\(shown) has a query string or fragment; target URLs carry none (credentials are configured by the operator)")
        }
        if text.hasSuffix("/") { text.removeLast() }
        let rest = text.utf8.dropFirst(scheme)
        let authority = rest.prefix(while: { $0 != UInt8(ascii: "/") })
        guard !authority.isEmpty else { throw ContractError.at(path, .invalidURL, "\(shown) has no host") }
        guard !authority.contains(UInt8(ascii: "@")) else {
            throw ContractError.at(
                path, .invalidURL, "\(shown) has user information; credentials are configured by the operator, not sent in URLs")
        }
        let pathPart = rest.dropFirst(authority.count)
        let hasEmptySegment = pathPart.last == UInt8(ascii: "/")
            || zip(pathPart, pathPart.dropFirst()).contains { $0 == UInt8(ascii: "/") && $1 == UInt8(ascii: "/") }
        if hasEmptySegment {
            throw ContractError.at(path, .invalidURL, "\(shown) has an empty path segment (//)")
        }
        return text
    }

    package static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
    }

    package static func sameTarget(_ a: QueryTarget, _ b: QueryTarget) -> Bool {
        switch (a, b) {
        case (.arcgis(let urlA, let layersA), .arcgis(let urlB, let layersB)):
            urlA == urlB && layersA.map { Set($0) } == layersB.map { Set($0) }
        case (.ogc(let urlA, let collectionA), .ogc(let urlB, let collectionB)):
            urlA == urlB && collectionA == collectionB
        default:
            false
        }
    }
}
