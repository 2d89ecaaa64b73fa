import FeatureGeometry
import QueryLanguage
import Testing
import FeatureService

@testable import ArcGISEngine

/// The per-layer cache of checked and encoded where clauses: what it hands back is what checking and
/// encoding give without it, and it holds only what it should.
@Suite("Prepared where clauses")
struct PreparedClausesTests {
    static let envelope = Envelope(
        xmin: -13_223_962, ymin: 4_030_690, xmax: -13_223_762, ymax: 4_030_890, spatialReference: SpatialReference(wkid: 3857))

    /// A layer of its own for each test (tests run in parallel; a shared value shares its cache).
    static func layer() -> LayerMetadata {
        LayerMetadata(
            url: "http://h/arcgis/rest/services/LA/FeatureServer/0", id: 0, name: "Parcels", type: "Feature Layer",
            geometryType: "esriGeometryPolygon", objectIdField: "OBJECTID",
            fields: [LayerField(name: "OBJECTID", type: .objectID), LayerField(name: "UseType", type: .string)],
            maxRecordCount: 1000, capabilities: ["Query"], supportsPagination: true, supportedQueryFormats: ["JSON"],
            supportsStatistics: true, useStandardizedQueries: true, spatialReference: SpatialReference(wkid: 3857))
    }

    static func query(_ text: String) throws -> ServiceQuery {
        ServiceQuery(whereClause: try WhereClause(text), geometry: .envelope(envelope), result: .count)
    }

    /// `where=<SQL>` as the reference encoder writes it, with the base's other fields.
    static func referenceBase(sql: String) -> String {
        ReferenceURLs.encoded([
            ("f", "json"), ("where", sql),
            ("geometry", #"{"xmin":-13223962,"ymin":4030690,"xmax":-13223762,"ymax":4030890,"spatialReference":{"wkid":3857}}"#),
            ("geometryType", "esriGeometryEnvelope"), ("inSR", "3857"), ("spatialRel", "esriSpatialRelIntersects"),
        ])
    }

    @Test("A checked query's parameters carry the clause in the layer's spelling, the first time and from the cache")
    func checkedClauseEncodesAsWithoutCache() throws {
        let layer = Self.layer()
        let text = "usetype = 'Residential' AND objectid > 10"
        let expected = try WhereClause(text).validated(against: layer.schema)
        for round in 0..<3 {
            let checked = try QueryCheck.validated(try Self.query(text), for: layer)
            #expect(checked.whereClause == expected, "round \(round)")
            let base = try QueryParameters.base(checked, layer: layer)
            #expect(base.encoded == Self.referenceBase(sql: expected.arcGISSQL), "round \(round)")
            #expect(layer.preparedClauses.clauses.count == 1)
        }
        #expect(expected.arcGISSQL.contains("UseType"))
    }

    @Test("An unchecked clause with a cached clause's text is encoded as written, not as the cached one")
    func uncheckedClauseIsNotTakenFromCache() throws {
        let layer = Self.layer()
        let text = "usetype = 'Commercial'"
        _ = try QueryCheck.validated(try Self.query(text), for: layer)
        let unchecked = try Self.query(text)
        let base = try QueryParameters.base(unchecked, layer: layer)
        #expect(base.encoded == Self.referenceBase(sql: try WhereClause(text).arcGISSQL))
        #expect(base.encoded.contains("usetype"))
    }

    @Test("A clause that does not fit the layer fails each time and is not kept")
    func failuresAreNotKept() throws {
        let layer = Self.layer()
        for _ in 0..<2 {
            #expect(throws: FeatureServiceError.self) { try QueryCheck.validated(try Self.query("Nope = 1"), for: layer) }
        }
        #expect(layer.preparedClauses.clauses.count == 0)
    }

    @Test("The cache holds at most its capacity, and never a clause longer than its limit")
    func bounded() throws {
        let clauses = PreparedClauses()
        let schema = Self.layer().schema
        for index in 0..<(PreparedClauses.capacity * 2 + 3) {
            let clause = try WhereClause("OBJECTID > \(index)")
            let prepared = try clauses.prepared(clause, schema: schema)
            #expect(prepared.validated == (try clause.validated(against: schema)))
            #expect(clauses.count <= PreparedClauses.capacity)
            #expect(clauses.count >= 1)
        }
        let long = try WhereClause("OBJECTID IN (" + (0..<2_000).map(String.init).joined(separator: ",") + ")")
        #expect((long.sourceText?.utf8.count ?? 0) > PreparedClauses.maxClauseBytes)
        let before = clauses.count
        _ = try clauses.prepared(long, schema: schema)
        #expect(clauses.count == before)
        #expect(clauses.encodedSQL(of: try long.validated(against: schema)) == nil)
    }

    @Test("A new schema starts a new cache; copies of the metadata share theirs")
    func newSchemaNewCache() throws {
        var layer = Self.layer()
        _ = try QueryCheck.validated(try Self.query("UseType = 'Civic'"), for: layer)
        let copy = layer
        #expect(copy.preparedClauses.clauses === layer.preparedClauses.clauses)
        #expect(copy.preparedClauses.clauses.count == 1)
        layer.schema = LayerSchema(metadataFields: [(name: "OBJECTID", type: "esriFieldTypeOID")])
        #expect(layer.preparedClauses.clauses.count == 0)
        #expect(throws: FeatureServiceError.self) { try QueryCheck.validated(try Self.query("UseType = 'Civic'"), for: layer) }
        // Equal metadata whatever each has cached.
        #expect(copy == Self.layer())
    }
}
