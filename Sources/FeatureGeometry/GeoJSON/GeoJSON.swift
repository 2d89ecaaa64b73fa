package import FeatureQuerySupport

/// GeoJSON geometries (RFC 7946), as OGC API Features services send them and as `f=geojson` ArcGIS queries
/// return them.
///
/// Decoding maps the seven geometry types onto FeatureGeometry's five: Point → ``Point``, MultiPoint →
/// ``Multipoint``, LineString and MultiLineString → ``Polyline``, Polygon and MultiPolygon → ``Polygon``
/// (rings turned to the Esri convention: exterior clockwise, holes counter-clockwise, whatever the input's
/// winding, as RFC 7946 §3.1.6 asks parsers to accept either). A GeometryCollection of one member becomes that
/// member; one whose members are all points, all lines or all polygons becomes the multi-geometry of that
/// kind; a mixed one is ``GeometryError/Code/unsupportedGeometryType``. Extra position values (Z) are dropped,
/// unclosed rings are closed, and a `bbox` member is checked but not kept (``Geometry/extent`` recomputes it).
///
/// Encoding writes RFC 7946's winding (exterior counter-clockwise) and the simplest type: a one-path polyline
/// is a LineString, a one-outer-ring polygon a Polygon, an envelope a Polygon.
package enum GeoJSON {
    /// How ``encode(_:options:)`` writes.
    package struct EncodingOptions: Hashable, Sendable {
        /// Adds a `bbox` member ([west, south, east, north]) to every geometry. Default `false`.
        package var includeBoundingBox: Bool
        /// Projects Web Mercator geometries to WGS 84 first, since RFC 7946 coordinates are longitude and
        /// latitude; other spatial references are then an error. Set `false` to write coordinates as they
        /// are (an OGC API Features Part 2 `crs` response). Default `true`.
        package var projectToWGS84: Bool

        /// Options with the defaults: no `bbox`, Web Mercator projected to WGS 84.
        package init(includeBoundingBox: Bool = false, projectToWGS84: Bool = true) {
            self.includeBoundingBox = includeBoundingBox
            self.projectToWGS84 = projectToWGS84
        }
    }

    /// Decodes one GeoJSON geometry from UTF-8 bytes. `spatialReference` is the one the coordinates are in:
    /// WGS 84 for RFC 7946 (the default), another for an OGC API Features Part 2 `crs` response.
    package static func decode(
        _ bytes: some Collection<UInt8>, spatialReference: SpatialReference? = .wgs84,
        limits: DecodingLimits = .default
    ) throws -> Geometry {
        try decode(ParsedJSON(parsing: bytes, limits: limits), spatialReference: spatialReference, limits: limits)
    }

    /// Decodes one GeoJSON geometry from JSON text.
    package static func decode(
        _ text: String, spatialReference: SpatialReference? = .wgs84, limits: DecodingLimits = .default
    ) throws -> Geometry {
        try decode(ParsedJSON(parsing: text, limits: limits), spatialReference: spatialReference, limits: limits)
    }

    /// Decodes one GeoJSON geometry from an already-parsed value, such as a Feature's `geometry` member.
    package static func decode(
        _ value: ParsedJSON, spatialReference: SpatialReference? = .wgs84, limits: DecodingLimits = .default
    ) throws -> Geometry {
        var decoder = GeoJSONGeometryDecoder(limits: limits)
        var geometry = try decoder.geometry(value)
        geometry.spatialReference = spatialReference
        return geometry
    }

    /// Decodes one GeoJSON geometry from `JSONSerialization` output.
    package static func decode(
        jsonObject: Any, spatialReference: SpatialReference? = .wgs84, limits: DecodingLimits = .default
    ) throws -> Geometry {
        try decode(ParsedJSON(jsonObject: jsonObject, limits: limits), spatialReference: spatialReference, limits: limits)
    }

    /// Reads a `bbox` ([west, south, east, north], or with minimum and maximum Z after each pair) from a
    /// Feature, a FeatureCollection or an OGC collection's extent. A box crossing the antimeridian (west >
    /// east) is ``GeometryError/Code/invalidGeometry``: an ``Envelope`` cannot wrap; split it in two.
    package static func decodeBoundingBox(
        _ value: ParsedJSON, spatialReference: SpatialReference? = .wgs84
    ) throws -> Envelope {
        try GeoJSONGeometryDecoder.boundingBox(value, spatialReference: spatialReference)
    }

    /// The geometry as GeoJSON text; see ``EncodingOptions`` for projection and `bbox`.
    package static func encode(_ geometry: Geometry, options: EncodingOptions = EncodingOptions()) throws -> String {
        var output = ""
        try write(geometry, to: &output, options: options)
        return output
    }

    /// Appends the geometry's GeoJSON to `output`: the fast path for writing many features into one buffer.
    /// On error `output` is left as it was.
    package static func write(
        _ geometry: Geometry, to output: inout String, options: EncodingOptions = EncodingOptions()
    ) throws {
        var geometry = geometry
        if options.projectToWGS84, let spatialReference = geometry.spatialReference, !spatialReference.isWGS84 {
            geometry = try geometry.projected(to: .wgs84)
        }
        try JSONTextWriter.appendingAtomically(to: &output) {
            try GeoJSONGeometryEncoder.write(geometry, to: &$0, includeBoundingBox: options.includeBoundingBox)
        }
    }
}
