import CurlHTTP
import FeatureGeometry
import QueryLanguage

/// The form fields of one `query` request, built from a validated ``FeatureQuery`` and the layer's metadata.
///
/// Every request of a layer starts from ``base`` (where, geometry, spatial relation, output options) and adds
/// what its step needs: ids only, count only, a page, or a chunk of object ids.
struct QueryParameters: Sendable {
    private(set) var fields: [(String, String)]

    init(fields: [(String, String)]) { self.fields = fields }

    /// The where clause, spatial filter and output options for `query` on `layer`.
    static func base(_ query: FeatureQuery, layer: LayerMetadata) throws(ArcGISError) -> QueryParameters {
        var fields: [(String, String)] = [("f", "json")]
        fields.append(("where", query.whereClause?.arcGISSQL ?? "1=1"))
        if let geometry = query.geometry {
            let text: String
            do { text = try EsriJSON.encode(geometry) } catch {
                throw ArcGISError(.invalidQuery, "the query geometry cannot be sent to \(layer.url): \(error)", layer: layer.url)
            }
            fields.append(("geometry", text))
            fields.append(("geometryType", geometry.type.esriName))
            if let reference = geometry.spatialReference { fields.append(("inSR", String(reference.wkid))) }
            fields.append(("spatialRel", query.spatialRelationship.esriName))
        }
        return QueryParameters(fields: fields)
    }

    /// Output fields and geometry options for feature requests. The object-id field is always included, since
    /// completeness is checked by id.
    func withFeatureOutput(_ query: FeatureQuery, layer: LayerMetadata) -> QueryParameters {
        var copy = self
        var names = query.outFields
        if !names.contains("*"), !names.contains(where: { $0.caseInsensitiveEquals(layer.objectIdField) }) {
            names.append(layer.objectIdField)
        }
        copy.fields.append(("outFields", names.joined(separator: ",")))
        copy.fields.append(("returnGeometry", query.returnGeometry ? "true" : "false"))
        if let out = query.outSpatialReference { copy.fields.append(("outSR", String(out.wkid))) }
        return copy
    }

    func adding(_ extra: [(String, String)]) -> QueryParameters {
        QueryParameters(fields: fields + extra)
    }

    static func idsOnly(_ base: QueryParameters) -> QueryParameters {
        base.adding([("returnIdsOnly", "true")])
    }

    static func countOnly(_ base: QueryParameters) -> QueryParameters {
        base.adding([("returnCountOnly", "true")])
    }

    /// One page by offset, ordered by the object-id field so that pages neither overlap nor skip.
    static func page(_ features: QueryParameters, objectIdField: String, offset: Int, count: Int) -> QueryParameters {
        features.adding([
            ("orderByFields", "\(objectIdField) ASC"), ("resultOffset", String(offset)),
            ("resultRecordCount", String(count)),
        ])
    }

    /// Features by id. The where clause and geometry are left out: the ids already are the selection.
    static func objectIds(_ ids: ArraySlice<Int64>, query: FeatureQuery, layer: LayerMetadata) -> QueryParameters {
        let list = ids.map(String.init).joined(separator: ",")
        return QueryParameters(fields: [("f", "json"), ("objectIds", list)]).withFeatureOutput(query, layer: layer)
    }

    /// `name=value&...`, form-encoded.
    var encoded: String {
        fields.map { "\(HTTPRequest.formEncode($0.0))=\(HTTPRequest.formEncode($0.1))" }.joined(separator: "&")
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
