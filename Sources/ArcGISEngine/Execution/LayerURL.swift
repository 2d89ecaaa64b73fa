/// A FeatureServer or MapServer URL taken apart: the service, and the layer if the URL names one.
///
/// Targets arrive as text from messages, so the URL is checked before anything is sent: http(s) only, a
/// `/FeatureServer` or `/MapServer` segment, an optional numeric layer id after it, nothing else. The query
/// string and fragment are dropped (tokens never travel in the URL we keep).
struct LayerURL: Hashable, Sendable {
    /// `https://host/arcgis/rest/services/Name/MapServer`
    var serviceURL: String
    var layerId: Int?
    /// `scheme://host[:port]`, the key of the per-host limit.
    var origin: String

    var url: String {
        if let layerId { return "\(serviceURL)/\(layerId)" }
        return serviceURL
    }

    func layer(_ id: Int) -> LayerURL {
        LayerURL(serviceURL: serviceURL, layerId: id, origin: origin)
    }

    init(serviceURL: String, layerId: Int?, origin: String) {
        self.serviceURL = serviceURL
        self.layerId = layerId
        self.origin = origin
    }

    init(parsing text: String) throws(ArcGISError) {
        var trimmed = Substring(text)
        if let cut = trimmed.firstIndex(where: { $0 == "?" || $0 == "#" }) { trimmed = trimmed[..<cut] }
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let shown = String(trimmed.prefix(300))
        let lower = trimmed.lowercased()
        let schemeLength: Int
        if lower.hasPrefix("https://") { schemeLength = 8 } else if lower.hasPrefix("http://") { schemeLength = 7 } else {
            throw ArcGISError(.invalidURL, "\(shown) is not an http(s) URL", layer: shown)
        }
        let afterScheme = trimmed.dropFirst(schemeLength)
        let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        let authority = afterScheme[..<hostEnd]
        guard !authority.isEmpty, !authority.contains("@"),
            authority.allSatisfy({ $0.isASCII && !$0.isWhitespace })
        else {
            throw ArcGISError(.invalidURL, "\(shown) has no valid host", layer: shown)
        }
        let segments = afterScheme[hostEnd...].split(separator: "/", omittingEmptySubsequences: true)
        guard let serverIndex = segments.lastIndex(where: { $0 == "FeatureServer" || $0 == "MapServer" }) else {
            throw ArcGISError(
                .invalidURL, "\(shown) is not a FeatureServer or MapServer URL (expected …/FeatureServer or "
                    + "…/MapServer, optionally followed by a layer id)", layer: shown)
        }
        let rest = segments[(serverIndex + 1)...]
        guard rest.count <= 1 else {
            throw ArcGISError(.invalidURL, "\(shown) has extra path segments after the layer id", layer: shown)
        }
        if let idText = rest.first {
            guard let id = Int(idText), id >= 0 else {
                throw ArcGISError(.invalidURL, "\(shown): '\(idText)' is not a layer id", layer: shown)
            }
            layerId = id
        } else {
            layerId = nil
        }
        let scheme = trimmed.prefix(schemeLength).lowercased()
        origin = scheme + authority.lowercased()
        let servicePath = segments[...serverIndex].joined(separator: "/")
        serviceURL = origin + "/" + servicePath
    }
}
