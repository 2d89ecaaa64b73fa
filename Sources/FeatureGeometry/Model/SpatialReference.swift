/// A coordinate system named by its well-known ID, as ArcGIS REST and OGC services name them.
///
/// FeatureGeometry identifies spatial references by WKID only: a WKT-only spatial reference is rejected with
/// ``GeometryError/Code/unsupportedSpatialReference`` at decoding, so that no geometry travels in a coordinate
/// system nobody can name. Any WKID can be carried; only 4326 and Web Mercator can be projected between.
///
/// Equality and hashing compare the *canonical* WKID, so `{"wkid":102100,"latestWkid":3857}` from one server
/// equals `{"wkid":3857}` from another: both are Web Mercator.
package struct SpatialReference: Hashable, Sendable, CustomStringConvertible {
    /// The WKID as the server sent it (ArcGIS keeps the originally assigned one, e.g. 102100).
    package var wkid: Int
    /// The current WKID for the same system, when the server sends it (3857 for 102100).
    package var latestWkid: Int?

    /// A spatial reference as a server names it; pass `latestWkid` when the server sends one.
    package init(wkid: Int, latestWkid: Int? = nil) {
        self.wkid = wkid
        self.latestWkid = latestWkid
    }

    /// WGS 84 longitude/latitude in degrees (EPSG:4326, and GeoJSON's CRS84 with x = longitude).
    package static let wgs84 = SpatialReference(wkid: 4326)
    /// Spherical Web Mercator in meters, as ArcGIS writes it.
    package static let webMercator = SpatialReference(wkid: 102100, latestWkid: 3857)

    /// WKIDs that all mean spherical Web Mercator: EPSG 3857 and the older 3785, Esri's 102100 and 102113,
    /// and the informal 900913. They share one set of formulas (``WebMercator``).
    static let webMercatorWKIDs: Set<Int> = [3857, 3785, 102100, 102113, 900913]

    /// The one WKID that stands for this system: 3857 for every Web Mercator alias, else `latestWkid ?? wkid`.
    package var canonicalWKID: Int {
        if Self.webMercatorWKIDs.contains(wkid) { return 3857 }
        if let latestWkid, Self.webMercatorWKIDs.contains(latestWkid) { return 3857 }
        return latestWkid ?? wkid
    }

    /// Whether coordinates are WGS 84 longitude/latitude degrees.
    package var isWGS84: Bool { canonicalWKID == 4326 }
    /// Whether coordinates are spherical Web Mercator meters.
    package var isWebMercator: Bool { canonicalWKID == 3857 }

    /// Same coordinate system: the canonical WKIDs agree (102100 equals 3857).
    package static func == (lhs: SpatialReference, rhs: SpatialReference) -> Bool {
        lhs.canonicalWKID == rhs.canonicalWKID
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(canonicalWKID)
    }

    package var description: String {
        if let latestWkid, latestWkid != wkid { return "WKID \(wkid) (latest \(latestWkid))" }
        return "WKID \(wkid)"
    }
}
