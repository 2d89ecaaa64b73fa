/// Which protocol a target speaks: how the router picks the engine.
///
/// A struct with static members rather than an enum, so that adding a protocol adds a member and breaks no
/// exhaustive `switch`.
package struct ServiceKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The kind's name, as a request's target `type` spells it (`arcgis`, `ogc`).
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
    package var description: String { rawValue }

    /// ArcGIS REST: a FeatureServer or MapServer layer or service.
    package static let arcgis = ServiceKind(rawValue: "arcgis")
    /// OGC API Features: a collection of a landing page.
    package static let ogc = ServiceKind(rawValue: "ogc")
}

/// One target of a query: a service of some kind and which of its layers to query.
package struct ServiceTarget: Sendable, Hashable {
    package var kind: ServiceKind
    /// The layer, service or landing-page URL, without query string or trailing slash.
    package var url: String
    /// The layers of the service to query, by the protocol's own ids (ArcGIS sublayer ids as decimal text, an
    /// OGC collection id); `nil` for what the URL names itself (an ArcGIS layer, or every feature layer of an
    /// ArcGIS service).
    package var layers: [String]?

    package init(kind: ServiceKind, url: String, layers: [String]? = nil) {
        self.kind = kind
        self.url = url
        self.layers = layers
    }
}
