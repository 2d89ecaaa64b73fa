package import FeatureGeometry
package import QueryLanguage

/// What to ask a layer: the where clause, an optional spatial filter, and which kind of result to return.
///
/// The same query is sent to every layer of a fan-out; the engine validates it against each layer's fields
/// before anything is sent, so a clause naming a field one sublayer lacks fails that layer only.
package struct FeatureQuery: Sendable, Hashable {
    /// The kinds of result a query returns.
    package enum ResultKind: String, Sendable, Hashable, CaseIterable {
        /// The selection: every matching object id (`returnIdsOnly`), complete, whatever the count.
        case ids
        /// Only the number of matching features (`returnCountOnly`).
        case count
        /// Attributes (and geometry, if asked) of every matching feature, paged until complete.
        case features
    }

    /// How features are handed back.
    package enum FeatureOutput: String, Sendable, Hashable, CaseIterable {
        /// ``Feature`` values (attributes and geometry): the result's selection is
        /// ``LayerQueryResult/Selection/features(_:fieldOrder:spatialReference:)``.
        case structured
        /// GeoJSON `Feature` objects (the result's ``LayerQueryResult/Selection/geoJSON(_:)``): converted page
        /// by page as they arrive, compact in memory, ready to publish. Ask for `outSpatialReference` WGS 84
        /// (or Web Mercator).
        case geoJSON
    }

    /// The where clause; nil means every feature (`1=1`).
    package var whereClause: WhereClause?
    /// The spatial filter (an envelope for the visible extent, or any geometry) with its spatial reference.
    package var geometry: Geometry?
    package var spatialRelationship: SpatialRelation
    /// Fields to return with features; `["*"]` for all. The object-id field is always added.
    package var outFields: [String]
    package var returnGeometry: Bool
    /// The spatial reference of returned geometries; nil keeps the layer's.
    package var outSpatialReference: SpatialReference?
    /// At most this many features (or ids) per layer; nil for all. The result says when it was cut.
    package var maxFeatures: Int?
    package var result: ResultKind
    /// How features are handed back when ``result`` is ``ResultKind/features``.
    package var featureOutput: FeatureOutput
    /// The worker's credential the query picked by name (``RequestAuthenticator``); `nil`: whatever covers each
    /// URL by scope. Not part of the public API: an embedder's engine has no credentials.
    package var credential: String? = nil

    package init(
        whereClause: WhereClause? = nil, geometry: Geometry? = nil,
        spatialRelationship: SpatialRelation = .intersects, outFields: [String] = ["*"],
        returnGeometry: Bool = false, outSpatialReference: SpatialReference? = nil, maxFeatures: Int? = nil,
        result: ResultKind = .ids, featureOutput: FeatureOutput = .structured
    ) {
        self.whereClause = whereClause
        self.geometry = geometry
        self.spatialRelationship = spatialRelationship
        self.outFields = outFields
        self.returnGeometry = returnGeometry
        self.outSpatialReference = outSpatialReference
        self.maxFeatures = maxFeatures
        self.result = result
        self.featureOutput = featureOutput
    }
}
