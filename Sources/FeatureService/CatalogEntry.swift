/// One entry of a catalog: a collection or layer a person would choose from when browsing a service, with what
/// they need to decide (what it holds, where, and how well it can be filtered).
///
/// One shape for both protocols; fields a protocol does not have stay `nil` (or empty).
package struct CatalogEntry: Sendable, Hashable {
    /// The OGC collection id; the ArcGIS layer id as decimal text.
    package var id: String
    /// The OGC collection's title; the ArcGIS layer's name.
    package var title: String?
    package var description: String?
    /// The collection URL (`{landing}/collections/{id}`) or the layer URL: what a query target names.
    package var url: String?
    /// `[minLon, minLat, maxLon, maxLat]` in CRS84 (minLon > maxLon crosses the antimeridian).
    package var extent: [Double]?
    /// OGC `[start, end]` (RFC 3339); `nil` for an open end.
    package var temporalExtent: [String?]?
    /// OGC `itemType` (`feature` when the collection says nothing).
    package var itemType: String?
    /// The OGC CRS URIs the collection serves (a `#/crs` reference resolved); empty for ArcGIS.
    package var crs: [String]
    package var storageCrs: String?
    /// The filter languages the worker would send this collection (`cql2-text`, `cql2-json`); empty when only
    /// Part 1 parameters work and the rest is filtered by the worker.
    package var filterLanguages: [String]
    /// The collection's queryables, when declared.
    package var queryables: [String]?
    /// The geometry type (`esriGeometryPolygon`, ...), when known.
    package var geometryType: String?
    /// ArcGIS: whether the layer is a feature layer whose capabilities include Query.
    package var isQueryable: Bool?
    /// ArcGIS: `advancedQueryCapabilities.supportsPagination`.
    package var supportsPagination: Bool?
    /// ArcGIS: the relationships the layer advertises (what `result: related` can follow); empty for OGC.
    package var relationships: [LayerRelationship] = []
    /// ArcGIS: whether the layer's features have attachments (`hasAttachments`); `nil` for OGC.
    package var hasAttachments: Bool?

    package init(
        id: String, title: String? = nil, description: String? = nil, url: String? = nil, extent: [Double]? = nil,
        temporalExtent: [String?]? = nil, itemType: String? = nil, crs: [String] = [], storageCrs: String? = nil,
        filterLanguages: [String] = [], queryables: [String]? = nil, geometryType: String? = nil,
        isQueryable: Bool? = nil, supportsPagination: Bool? = nil
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.url = url
        self.extent = extent
        self.temporalExtent = temporalExtent
        self.itemType = itemType
        self.crs = crs
        self.storageCrs = storageCrs
        self.filterLanguages = filterLanguages
        self.queryables = queryables
        self.geometryType = geometryType
        self.isQueryable = isQueryable
        self.supportsPagination = supportsPagination
    }
}
