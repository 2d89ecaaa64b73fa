import ArcGISEngine
import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage
import FeatureService

/// One small map-view query: a where clause and a ~200 m envelope (Web Mercator) near the sample data's
/// densest cluster, so each selection holds a few dozen parcels.
struct QuerySpec: Sendable {
    var whereClause: String
    var xmin: Int
    var ymin: Int
    var xmax: Int
    var ymax: Int
}

/// The benchmark's requests: the same deterministic sequence of small queries for the worker (as request
/// JSON, in the contract's format) and for its peers (as the engine's `ServiceQuery`, or the URLs the
/// engine sends).
enum RequestFactory {
    /// The where clause of every query.
    static let whereClause = "UseType = 'Residential'"

    /// `count` queries: envelopes of `size` meters whose centres are spread uniformly over ±`spread`
    /// meters around the sample data's viewpoint (34.03 N, 118.805 W), from a seeded generator.
    static func specs(count: Int, seed: UInt64 = 42, size: Double = 200, spread: Double = 3_000) -> [QuerySpec] {
        let center = WebMercator.project(longitude: -118.805, latitude: 34.03)
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let x = center.x + (random.unit() * 2 - 1) * spread
            let y = center.y + (random.unit() * 2 - 1) * spread
            return QuerySpec(
                whereClause: whereClause, xmin: Int(x - size / 2), ymin: Int(y - size / 2), xmax: Int(x + size / 2),
                ymax: Int(y + size / 2))
        }
    }

    /// A request message in the contract's format (docs/contract/examples/request-map-extent.json), asking for
    /// `result` (`ids`, or `count`: one HTTP request instead of two).
    static func requestJSON(requestId: String, taskId: String, layerURL: String, _ spec: QuerySpec, result: String = "ids") -> String {
        #"{"requestId":"\#(requestId)","taskId":"\#(taskId)","targets":[{"type":"arcgis","url":"\#(layerURL)"}],"#
            + #""query":{"where":"\#(spec.whereClause)","extent":{"xmin":\#(spec.xmin),"ymin":\#(spec.ymin),"#
            + #""xmax":\#(spec.xmax),"ymax":\#(spec.ymax),"spatialReference":{"wkid":3857}},"result":"\#(result)"}}"#
    }

    /// The engine's query for a spec, as the worker builds it from the request (`QuerySpec.serviceQuery`, then `ServiceQuery(_:)`:
    /// the extent as an envelope in its own spatial reference, ids, GeoJSON feature output).
    static func featureQuery(_ spec: QuerySpec) throws -> ServiceQuery {
        let clause = try WhereClause(spec.whereClause)
        let envelope = Envelope(
            xmin: Double(spec.xmin), ymin: Double(spec.ymin), xmax: Double(spec.xmax), ymax: Double(spec.ymax),
            spatialReference: SpatialReference(wkid: 3857))
        return ServiceQuery(whereClause: clause, geometry: .envelope(envelope), result: .ids)
    }
}
