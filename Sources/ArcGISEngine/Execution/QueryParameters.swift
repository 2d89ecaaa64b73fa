import CurlHTTP
import FeatureGeometry
import QueryLanguage
import FeatureService

/// The form fields of one `query` request, built from a validated ``ServiceQuery`` and the layer's metadata.
///
/// Every request of a layer starts from ``base`` (where, geometry, spatial relation, output options) and adds
/// what its step needs: ids only, count only, a page, or a chunk of object ids.
///
/// The fields are kept only in their form encoding, extended as fields are added: the fields of ``base`` (a
/// where clause and a geometry, the long ones) are encoded once per query, not once for each of its requests
/// (the ids and the count request of a query share them), and a request copies one byte array.
struct QueryParameters: Sendable {
    /// `name=value&...`, form-encoded: the query string of a GET, the body of a POST.
    private(set) var encodedBytes: [UInt8] = []
    /// Sent as a POST whatever its length: `queryRelatedRecords` and `queryAttachments` take lists of object
    /// ids that grow with the selection, and some servers refuse long GETs well below the engine's limit.
    var alwaysPOST = false

    init(fields: [(String, String)]) {
        for (name, value) in fields { append(name, value) }
    }

    private init(encodedBytes: [UInt8]) {
        self.encodedBytes = encodedBytes
    }

    /// Adds one field, encoding it onto ``encodedBytes``.
    mutating func append(_ name: String, _ value: String) {
        if !encodedBytes.isEmpty { encodedBytes.append(UInt8(ascii: "&")) }
        HTTPRequest.appendFormEncoded(name, to: &encodedBytes)
        encodedBytes.append(UInt8(ascii: "="))
        HTTPRequest.appendFormEncoded(value, to: &encodedBytes)
    }

    /// Adds one field whose value is form-encoded already (a where clause from ``PreparedClauses``).
    mutating func appendEncoded(_ name: String, encodedValue: [UInt8]) {
        if !encodedBytes.isEmpty { encodedBytes.append(UInt8(ascii: "&")) }
        HTTPRequest.appendFormEncoded(name, to: &encodedBytes)
        encodedBytes.append(UInt8(ascii: "="))
        encodedBytes.append(contentsOf: encodedValue)
    }

    /// The where clause (its encoding from the layer's ``PreparedClauses`` when the query was checked), spatial filter and output options for `query` on `layer`.
    static func base(_ query: ServiceQuery, layer: LayerMetadata) throws(FeatureServiceError) -> QueryParameters {
        let encodedWhere = query.whereClause.flatMap { layer.preparedClauses.clauses.encodedSQL(of: $0) }
        return try base(query, clause: CheckedClause(validated: query.whereClause, encoded: encodedWhere), layer: layer)
    }

    /// The where clause (`clause`, checked for the layer), spatial filter and output options of `query`,
    /// written in one pass into one buffer (``FormBytes``), with room for `extra` more bytes (the field a
    /// request adds, without a copy). The bytes are those the fields `f`, `where`, `geometry`, `geometryType`,
    /// `inSR`, `spatialRel` appended one by one give.
    static func base(
        _ query: ServiceQuery, clause: CheckedClause, layer: LayerMetadata, reserving extra: Int = 0
    ) throws(FeatureServiceError) -> QueryParameters {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(320 + (clause.encoded?.count ?? 0) + extra)
        FormBytes.append("f=json&where=", to: &bytes)
        if let encoded = clause.encoded {
            bytes.append(contentsOf: encoded)
        } else if let clause = clause.validated {
            FormBytes.append(encoding: try sentSQL(of: clause, layer: layer), to: &bytes)
        } else {
            FormBytes.append("1%3D1", to: &bytes)  // 1=1
        }
        if let geometry = query.geometry {
            FormBytes.append("&geometry=", to: &bytes)
            try appendGeometryJSON(geometry, layer: layer, to: &bytes)
            FormBytes.append("&geometryType=", to: &bytes)
            FormBytes.append(encoding: geometry.type.esriName, to: &bytes)
            if let reference = geometry.spatialReference {
                FormBytes.append("&inSR=", to: &bytes)
                FormBytes.appendInteger(reference.wkid, to: &bytes)
            }
            FormBytes.append("&spatialRel=", to: &bytes)
            FormBytes.append(encoding: query.spatialRelationship.esriName, to: &bytes)
        }
        if let ids = query.objectIds {
            FormBytes.append("&objectIds=", to: &bytes)
            appendObjectIds(ids, to: &bytes)
        }
        if let time = query.time {
            FormBytes.append("&time=", to: &bytes)
            FormBytes.append(encoding: timeValue(time), to: &bytes)
        }
        return QueryParameters(encodedBytes: bytes)
    }

    /// A count query's one request: ``base(_:layer:reserving:)`` and `returnCountOnly`, in one buffer.
    static func countOnly(_ query: ServiceQuery, clause: CheckedClause, layer: LayerMetadata) throws(FeatureServiceError) -> QueryParameters {
        var parameters = try base(query, clause: clause, layer: layer, reserving: 24)
        FormBytes.append("&returnCountOnly=true", to: &parameters.encodedBytes)
        return parameters
    }

    /// `objectIds`' value: the ids, comma-separated (checked to be integers by ``QueryCheck``), `%2C` between.
    private static func appendObjectIds(_ ids: [FeatureID], to bytes: inout [UInt8]) {
        var first = true
        for case .integer(let id) in ids {
            if !first { FormBytes.append("%2C", to: &bytes) }
            first = false
            FormBytes.append(encoding: String(id), to: &bytes)
        }
    }

    /// `time`'s value: an instant as one epoch-milliseconds number, a window as `start,end` with `null` for
    /// an open end (ArcGIS's "infinity").
    /// The SQL sent for `clause` (checked for `layer`) when its encoding was not cached: its date literals in
    /// the layer's zone (``PreparedClauses/sentSQL(of:schema:timeReference:)``).
    static func sentSQL(of clause: WhereClause, layer: LayerMetadata) throws(FeatureServiceError) -> String {
        do throws(QueryLanguageError) {
            return try PreparedClauses.sentSQL(of: clause, schema: layer.schema, timeReference: layer.dateFieldsTimeReference)
        } catch {
            throw FeatureServiceError(
                .invalidQuery, "the where clause does not fit \(layer.url) (\(layer.name)): \(error.message)",
                layer: layer.url, details: [error.code.rawValue])
        }
    }

    static func timeValue(_ time: TimeWindow) -> String {
        if time.isInstant, let start = time.start { return String(start) }
        return "\(time.start.map(String.init) ?? "null"),\(time.end.map(String.init) ?? "null")"
    }

    /// The geometry's Esri JSON, form-encoded: an envelope (a map view's extent, nearly every query) written
    /// straight into `bytes`, any other geometry through `EsriJSON`.
    private static func appendGeometryJSON(_ geometry: Geometry, layer: LayerMetadata, to bytes: inout [UInt8]) throws(FeatureServiceError) {
        if case .envelope(let envelope) = geometry, FormBytes.appendEnvelopeJSON(envelope, to: &bytes) { return }
        let text: String
        do { text = try EsriJSON.encode(geometry) } catch {
            throw FeatureServiceError(.invalidQuery, "the query geometry cannot be sent to \(layer.url): \(error)", layer: layer.url)
        }
        FormBytes.append(encoding: text, to: &bytes)
    }

    /// Output fields and geometry options for feature requests. The object-id field is always included, since
    /// completeness is checked by id.
    func withFeatureOutput(_ query: ServiceQuery, layer: LayerMetadata) -> QueryParameters {
        var copy = self
        var names = query.outFields
        if !names.contains("*"), !names.contains(where: { $0.caseInsensitiveEquals(layer.objectIdField) }) {
            names.append(layer.objectIdField)
        }
        copy.append("outFields", names.joined(separator: ","))
        copy.append("returnGeometry", query.returnGeometry ? "true" : "false")
        if let out = query.outSpatialReference { copy.append("outSR", String(out.wkid)) }
        return copy
    }

    /// These fields and `extra`; the encoding of these is reused, only `extra` is encoded.
    func adding(_ extra: [(String, String)]) -> QueryParameters {
        var copy = self
        for (name, value) in extra { copy.append(name, value) }
        return copy
    }

    static func idsOnly(_ base: QueryParameters) -> QueryParameters {
        var copy = base
        copy.append("returnIdsOnly", "true")
        return copy
    }

    static func countOnly(_ base: QueryParameters) -> QueryParameters {
        var copy = base
        copy.append("returnCountOnly", "true")
        return copy
    }

    /// One page by offset, ordered by the object-id field so that pages neither overlap nor skip.
    static func page(_ features: QueryParameters, objectIdField: String, offset: Int, count: Int) -> QueryParameters {
        features.adding([
            ("orderByFields", "\(objectIdField) ASC"), ("resultOffset", String(offset)),
            ("resultRecordCount", String(count)),
        ])
    }

    /// Features by id. The where clause and geometry are left out: the ids already are the selection.
    static func objectIds(_ ids: ArraySlice<Int64>, query: ServiceQuery, layer: LayerMetadata) -> QueryParameters {
        let list = ids.map(String.init).joined(separator: ",")
        return QueryParameters(fields: [("f", "json"), ("objectIds", list)]).withFeatureOutput(query, layer: layer)
    }

    /// A GET with the fields in its URL when that fits in `maxGETURLLength` bytes, else a form-encoded POST
    /// (what `HTTPRequest.formPost` builds for the same fields, from the encoding already made).
    func request(endpoint: String, maxGETURLLength: Int) -> HTTPRequest {
        if !alwaysPOST, endpoint.utf8.count + 1 + encodedBytes.count <= maxGETURLLength {
            return HTTPRequest(method: .get, url: url(endpoint: endpoint))
        }
        return HTTPRequest(
            method: .post, url: endpoint, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: encodedBytes)
    }

    /// `endpoint?query`: the URL of a GET, built in one buffer of the exact size.
    func url(endpoint: String) -> String {
        var endpoint = endpoint
        return endpoint.withUTF8 { prefix in
            encodedBytes.withUnsafeBufferPointer { query in
                String(unsafeUninitializedCapacity: prefix.count + 1 + query.count) { buffer in
                    var index = buffer.initialize(fromContentsOf: prefix)
                    buffer[index] = UInt8(ascii: "?")
                    index += 1
                    return index + UnsafeMutableBufferPointer(rebasing: buffer[index...]).initialize(fromContentsOf: query)
                }
            }
        }
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
