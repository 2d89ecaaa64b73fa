// FeatureGeometry: the geometry the feature-query worker reads, writes, projects, relates and indexes.
//
// - Model: ``Point``, ``Multipoint``, ``Polyline``, ``Polygon`` (rings in the Esri convention), ``Envelope``
//   and ``Geometry`` over them; ``SpatialReference`` by WKID. Two-dimensional: Z and M are read and dropped.
// - Formats: ``EsriJSON`` and ``GeoJSON`` (RFC 7946), decoded within ``DecodingLimits`` from bytes, text,
//   `ParsedJSON` (from FeatureQuerySupport, the package's JSON reader) or Foundation objects; every failure
//   is a ``GeometryError``.
// - Projection: 4326 <-> Web Mercator (``WebMercator``, ``Geometry/projected(to:)``).
// - Relations: ``SpatialRelation`` (intersects, contains, within, envelope-intersects), ``SpatialFilter``.
// - Index: ``SpatialIndex``, a static packed STR R-tree for millions of boxes.
//
// It depends on nothing but FeatureQuerySupport (JSON reading), the standard library and, for
// `JSONSerialization` objects only, Foundation.
