/// One collection a ``PygeoapiServer`` serves, and the pygeoapi provider behind it.
package struct PygeoapiCollection: Sendable {
    /// Where the features come from; the provider decides what pygeoapi can filter.
    package enum Source: Sendable {
        /// pygeoapi's GeoJSON provider over a FeatureCollection file: bbox and `name=value` work, but
        /// `filter` is parsed and then silently ignored (every feature comes back).
        case geoJSONFile(path: String)
        /// pygeoapi's PostgreSQL provider over a PostGIS table (geometry column `geom`): `filter` is
        /// translated to SQL and really evaluated.
        case postGIS(PostGISDatabase, table: String)
    }

    /// The collection id in `/collections/{id}`.
    package var id: String
    package var title: String
    package var description: String
    package var source: Source
    /// The property (GeoJSON file) or column (table) holding feature ids.
    package var idField: String
    /// The spatial extent pygeoapi advertises (CRS84 `[minx, miny, maxx, maxy]`).
    package var bbox: [Double]
    /// The property or column `datetime=` filters on (pygeoapi's `time_field`); none when `nil`.
    package var timeField: String?
    /// The temporal extent pygeoapi advertises (`extent.temporal.interval`, RFC 3339 begin and end); a
    /// collection without one is not time-aware to a client.
    package var temporal: (begin: String, end: String)?

    package init(
        id: String, title: String, description: String = "", source: Source, idField: String = "id",
        bbox: [Double] = [-180, -90, 180, 90], timeField: String? = nil, temporal: (begin: String, end: String)? = nil
    ) {
        self.temporal = temporal
        self.id = id
        self.title = title
        self.description = description.isEmpty ? title : description
        self.source = source
        self.idField = idField
        self.bbox = bbox
        self.timeField = timeField
    }

    /// The resource entry of pygeoapi's configuration.
    func resource() -> [String: Any] {
        var provider: [String: Any] = ["type": "feature", "id_field": idField]
        if let timeField { provider["time_field"] = timeField }
        switch source {
        case .geoJSONFile(let path):
            provider["name"] = "GeoJSON"
            provider["data"] = path
        case .postGIS(let database, let table):
            provider["name"] = "PostgreSQL"
            provider["table"] = table
            provider["geom_field"] = "geom"
            provider["data"] = [
                "host": database.host, "port": database.port, "dbname": database.databaseName, "user": database.user,
                "password": "unused", "search_path": ["public"],
            ] as [String: Any]
        }
        var extents: [String: Any] = ["spatial": ["bbox": bbox, "crs": "http://www.opengis.net/def/crs/OGC/1.3/CRS84"]]
        if let temporal { extents["temporal"] = ["begin": temporal.begin, "end": temporal.end] }
        return [
            "type": "collection", "title": title, "description": description, "keywords": [id],
            "extents": extents,
            "providers": [provider],
        ]
    }
}
