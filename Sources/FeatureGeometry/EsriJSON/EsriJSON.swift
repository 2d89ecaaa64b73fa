package import FeatureQuerySupport

/// Esri JSON geometries, as ArcGIS REST sends them in query responses and takes them in the `geometry`
/// query parameter: `{"x":..,"y":..}`, `{"xmin":..,"ymin":..,"xmax":..,"ymax":..}`, `{"points":[..]}`,
/// `{"paths":[..]}` and `{"rings":[..]}`, each with an optional `spatialReference`.
///
/// Decoding accepts Z and M (dropped; see ``Position``) and rings that are not closed (closed on decode).
/// Rings keep their order and winding, since Esri marks holes by winding; only a polygon with no clockwise
/// ring at all is turned around (a sender that used GeoJSON's winding). Empty points and envelopes
/// (`{"x":null}`, `"NaN"`) are ``GeometryError/Code/emptyGeometry`` errors, so the caller can treat the
/// feature as having no geometry. Curves (`curvePaths`, `curveRings`) are
/// ``GeometryError/Code/unsupportedGeometryType``: query with `returnTrueCurves=false` (the default).
package enum EsriJSON {
    /// Decodes one Esri JSON geometry from UTF-8 bytes (`Data`, `[UInt8]`, a byte buffer).
    ///
    /// `defaultSpatialReference` applies when the geometry has no `spatialReference` member: features in a
    /// query response carry theirs once, at the response level.
    package static func decode(
        _ bytes: some Collection<UInt8>, defaultSpatialReference: SpatialReference? = nil,
        limits: DecodingLimits = .default
    ) throws -> Geometry {
        try decode(ParsedJSON(parsing: bytes, limits: limits), defaultSpatialReference: defaultSpatialReference,
                   limits: limits)
    }

    /// Decodes one Esri JSON geometry from JSON text.
    package static func decode(
        _ text: String, defaultSpatialReference: SpatialReference? = nil, limits: DecodingLimits = .default
    ) throws -> Geometry {
        try decode(ParsedJSON(parsing: text, limits: limits), defaultSpatialReference: defaultSpatialReference,
                   limits: limits)
    }

    /// Decodes one Esri JSON geometry from an already-parsed JSON value, such as a feature's `geometry`.
    package static func decode(
        _ value: ParsedJSON, defaultSpatialReference: SpatialReference? = nil, limits: DecodingLimits = .default
    ) throws -> Geometry {
        var decoder = EsriGeometryDecoder(limits: limits)
        var geometry = try decoder.geometry(value)
        if geometry.spatialReference == nil { geometry.spatialReference = defaultSpatialReference }
        return geometry
    }

    /// Decodes one Esri JSON geometry from `JSONSerialization` output (a `[String: Any]`).
    package static func decode(
        jsonObject: Any, defaultSpatialReference: SpatialReference? = nil, limits: DecodingLimits = .default
    ) throws -> Geometry {
        try decode(ParsedJSON(jsonObject: jsonObject, limits: limits), defaultSpatialReference: defaultSpatialReference,
                   limits: limits)
    }

    /// Reads a `spatialReference` object: `{"wkid":..}`, optionally with `latestWkid`.
    ///
    /// A spatial reference given only as WKT is an ``GeometryError/Code/unsupportedSpatialReference`` error.
    package static func decodeSpatialReference(_ value: ParsedJSON) throws -> SpatialReference {
        try EsriGeometryDecoder.spatialReference(value)
    }

    /// The geometry as Esri JSON text, with its spatial reference if it has one. Polygons are written in the
    /// Esri convention (outer rings clockwise). Throws ``GeometryError/Code/invalidCoordinate`` for a
    /// coordinate that is not finite.
    package static func encode(_ geometry: Geometry) throws -> String {
        var output = ""
        try write(geometry, to: &output)
        return output
    }

    /// Appends the geometry's Esri JSON to `output`: the fast path for writing many features into one buffer.
    /// On error `output` is left as it was.
    package static func write(_ geometry: Geometry, to output: inout String) throws {
        try JSONTextWriter.appendingAtomically(to: &output) { try EsriGeometryEncoder.write(geometry, to: &$0) }
    }

    /// The spatial reference as Esri JSON: `{"wkid":102100,"latestWkid":3857}`.
    package static func encode(_ spatialReference: SpatialReference) -> String {
        var output = ""
        EsriGeometryEncoder.write(spatialReference, to: &output)
        return output
    }
}
