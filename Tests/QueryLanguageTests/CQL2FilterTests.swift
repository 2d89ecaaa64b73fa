import QueryLanguage
import Testing

/// Reading CQL2 filters, text and JSON, into the evaluator's tree and the spatial predicates.
@Suite("CQL2 filter reading")
struct CQL2FilterTests {
    static let fields = ["name", "count", "price", "day", "flag"]

    /// How a filter's attribute part judges a record (name, count, price, day in ms, flag).
    static func evaluate(_ filter: CQL2Filter, _ record: [AttributeValue]) throws -> TruthValue {
        let context = EvaluationContext(currentTimeMilliseconds: 0)
        return try #require(filter.attributes).compile(fieldNames: fields, context: context).evaluate(record)
    }

    static let sample: [AttributeValue] = [.string("Main St"), .integer(7), .double(2.5), .date(1_577_836_800_000), .integer(1)]

    /// Text filters from OGC 21-065r2 (adapted to these fields) and what they say of ``sample``.
    static let textCases: [(text: String, expected: TruthValue)] = [
        ("count = 7", .true),
        ("count <> 7", .false),
        ("count < 8 AND price >= 2.5", .true),
        ("count > 8 or price <= 2", .false),
        ("not (count = 7)", .false),
        ("name LIKE 'Main%'", .true),
        ("name like 'M_in St'", .true),
        (#"name LIKE 'Main\%'"#, .false),
        ("name NOT LIKE '%St'", .false),
        ("count BETWEEN 5 AND 10", .true),
        ("count NOT BETWEEN 5 AND 10", .false),
        ("count IN (1, 7, 9)", .true),
        ("name NOT IN ('a', 'b')", .true),
        ("name IS NULL", .false),
        ("name IS NOT NULL", .true),
        ("CASEI(name) = casei('MAIN st')", .true),
        ("CASEI(name) LIKE CASEI('main%')", .true),
        ("count * 2 + 1 = 15", .true),
        ("count / 2 = 3.5", .true),
        ("-count < 0", .true),
        ("name = 'it''s'", .false),
        (#""name" = 'Main St'"#, .true),
        ("day = DATE('2020-01-01')", .true),
        ("day > TIMESTAMP('2019-12-31T23:59:59Z')", .true),
        ("flag = TRUE", .true),
        ("flag = false", .false),
        ("1.5E0 < price", .true),
    ]

    @Test("CQL2 text filters evaluate as written", arguments: textCases)
    func text(text: String, expected: TruthValue) throws {
        let filter = try CQL2Filter(text: text)
        #expect(filter.spatialPredicates.isEmpty)
        #expect(try Self.evaluate(filter, Self.sample) == expected, "\(text)")
    }

    /// CQL2-JSON filters and the text filter each means: both must read to the same tree.
    static let jsonCases: [(json: String, text: String)] = [
        (#"{"op":"=","args":[{"property":"count"},7]}"#, "count = 7"),
        (#"{"op":"and","args":[{"op":"<","args":[{"property":"count"},8]},{"op":">=","args":[{"property":"price"},2.5]}]}"#,
            "count < 8 AND price >= 2.5"),
        (#"{"op":"or","args":[{"op":"not","args":[{"op":"isNull","args":[{"property":"name"}]}]},{"op":"<>","args":[{"property":"count"},1]}]}"#,
            "name IS NOT NULL OR count <> 1"),
        (#"{"op":"not","args":[{"op":"like","args":[{"property":"name"},"%St"]}]}"#, "name NOT LIKE '%St'"),
        (#"{"op":"not","args":[{"op":"in","args":[{"property":"count"},[1]]}]}"#, "count NOT IN (1)"),
        (#"{"op":"like","args":[{"property":"name"},"Main\\%"]}"#, #"name LIKE 'Main\%'"#),
        (#"{"op":"like","args":[{"op":"casei","args":[{"property":"name"}]},{"op":"casei","args":["main%"]}]}"#,
            "CASEI(name) LIKE CASEI('main%')"),
        (#"{"op":"between","args":[{"property":"count"},5,10]}"#, "count BETWEEN 5 AND 10"),
        (#"{"op":"in","args":[{"property":"name"},["a","b"]]}"#, "name IN ('a', 'b')"),
        (#"{"op":"=","args":[{"op":"+","args":[{"op":"*","args":[{"property":"count"},2]},1]},15]}"#, "count * 2 + 1 = 15"),
        (#"{"op":"=","args":[{"property":"day"},{"date":"2020-01-01"}]}"#, "day = DATE('2020-01-01')"),
        (#"{"op":">","args":[{"property":"day"},{"timestamp":"2019-12-31T23:59:59Z"}]}"#,
            "day > TIMESTAMP('2019-12-31T23:59:59Z')"),
        (#"{"op":"=","args":[{"property":"flag"},true]}"#, "flag = TRUE"),
        (#"{"op":"=","args":[{"op":"casei","args":[{"property":"name"}]},{"op":"casei","args":["MAIN st"]}]}"#,
            "CASEI(name) = CASEI('MAIN st')"),
    ]

    @Test("CQL2-JSON reads to the same tree as the text it means", arguments: jsonCases)
    func json(json: String, text: String) throws {
        let fromJSON = try CQL2Filter(json: json)
        let fromText = try CQL2Filter(text: text)
        #expect(fromJSON.attributes == fromText.attributes)
        #expect(fromJSON.conformanceClasses.contains(CQL2Conformance.json))
        #expect(fromText.conformanceClasses.contains(CQL2Conformance.text))
    }

    @Test("filter-lang picks the reader")
    func encoding() throws {
        #expect(CQL2Encoding(filterLang: "CQL2-JSON") == .json)
        #expect(CQL2Encoding(filterLang: "cql2-text") == .text)
        #expect(CQL2Encoding(filterLang: "ecql") == nil)
        let json = #"{"op":"=","args":[{"property":"count"},7]}"#
        let fromJSON = try CQL2Filter(json, encoding: .json)
        #expect(fromJSON.attributes == (try CQL2Filter("count = 7").attributes))
        #expect(fromJSON.conformanceClasses == [CQL2Conformance.basic, CQL2Conformance.json])
        #expect((#expect(throws: QueryLanguageError.self) { try CQL2Filter(json) })?.code == .unexpectedCharacter)
    }

    @Test("Spatial predicates with BBOX and WKT come out as coordinates; the rest stays a where clause")
    func spatialText() throws {
        let filter = try CQL2Filter(
            text: "count > 3 AND S_INTERSECTS(geometry, BBOX(-118.5, 33.7, -117.6, 34.4)) AND "
                + "s_within(\"geom\", POLYGON((0 0, 10 0, 10 10, 0 0))) AND S_CONTAINS(POINT(1 -2), geometry)")
        #expect(filter.attributes == (try WhereClause(cql2Text: "count > 3")))
        #expect(filter.spatialPredicates == [
            CQL2SpatialPredicate(relation: .intersects, property: "geometry", geometry: .bbox([-118.5, 33.7, -117.6, 34.4])),
            CQL2SpatialPredicate(
                relation: .within, property: "geom", geometry: .polygon([[[0, 0], [10, 0], [10, 10], [0, 0]]])),
            // The literal came first, so the relation is turned around.
            CQL2SpatialPredicate(relation: .within, property: "geometry", geometry: .point([1, -2])),
        ])
        #expect(filter.conformanceClasses.contains(CQL2Conformance.spatialFunctions))
    }

    @Test("Every WKT type reads, in any letter case, with Z and both MULTIPOINT spellings")
    func wkt() throws {
        let cases: [(String, CQL2GeometryLiteral)] = [
            ("POINT Z(1 2 3)", .point([1, 2, 3])),
            ("linestring(0 0, 1 1)", .lineString([[0, 0], [1, 1]])),
            ("MULTIPOINT((1 2), (3 4))", .multiPoint([[1, 2], [3, 4]])),
            ("MULTIPOINT(1 2, 3 4)", .multiPoint([[1, 2], [3, 4]])),
            ("MULTILINESTRING((0 0, 1 1), (2 2, 3 3))", .multiLineString([[[0, 0], [1, 1]], [[2, 2], [3, 3]]])),
            ("MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)))", .multiPolygon([[[[0, 0], [1, 0], [1, 1], [0, 0]]]])),
            ("GEOMETRYCOLLECTION(POINT(1 2), LINESTRING(0 0, 1 1))",
                .geometryCollection([.point([1, 2]), .lineString([[0, 0], [1, 1]])])),
            ("BBOX(0, 0, -1, 10, 10, 5)", .bbox([0, 0, -1, 10, 10, 5])),
        ]
        for (wkt, expected) in cases {
            let filter = try CQL2Filter(text: "S_INTERSECTS(geometry, \(wkt))")
            #expect(filter.attributes == nil)
            #expect(filter.spatialPredicates.map(\.geometry) == [expected], "\(wkt)")
        }
    }

    @Test("CQL2-JSON spatial predicates: bbox and GeoJSON geometries")
    func spatialJSON() throws {
        let filter = try CQL2Filter(json: #"""
            {"op":"and","args":[
              {"op":"s_intersects","args":[{"property":"geometry"},{"bbox":[-118,33,-117,34]}]},
              {"op":"s_within","args":[{"type":"Point","coordinates":[1,2]},{"property":"geometry"}]},
              {"op":"s_crosses","args":[{"property":"geometry"},{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}]},
              {"op":"s_touches","args":[{"property":"geometry"},{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[0,0],[1,1]]}]}]},
              {"op":">","args":[{"property":"count"},3]}]}
            """#)
        #expect(filter.attributes == (try WhereClause(cql2Text: "count > 3")))
        #expect(filter.spatialPredicates.map(\.relation) == [.intersects, .contains, .crosses, .touches])
        #expect(filter.spatialPredicates.map(\.geometry) == [
            .bbox([-118, 33, -117, 34]), .point([1, 2]), .multiPolygon([[[[0, 0], [1, 0], [1, 1], [0, 0]]]]),
            .geometryCollection([.lineString([[0, 0], [1, 1]])]),
        ])
    }

    @Test("Conformance classes name what the filter uses, so a server can refuse the rest")
    func conformance() throws {
        let prefix = "http://www.opengis.net/spec/cql2/1.0/conf/"
        #expect(try CQL2Filter(text: "count = 7").conformanceClasses == [prefix + "basic-cql2", prefix + "cql2-text"])
        #expect(try CQL2Filter(text: "S_INTERSECTS(g, POINT(1 2))").conformanceClasses.contains(prefix + "basic-spatial-functions"))
        #expect(try CQL2Filter(text: "S_INTERSECTS(g, LINESTRING(1 2, 3 4))").conformanceClasses
            .contains(prefix + "basic-spatial-functions-plus"))
        let rich = try CQL2Filter(text: "CASEI(name) IN ('A') AND count + 1 > price AND name LIKE 'a%'")
        #expect(rich.conformanceClasses == [
            prefix + "advanced-comparison-operators", prefix + "arithmetic", prefix + "basic-cql2",
            prefix + "case-insensitive-comparison", prefix + "cql2-text", prefix + "property-property",
        ])
        #expect(rich.missingConformanceClasses(declared: [prefix + "basic-cql2", prefix + "cql2-text"]).count == 4)
    }

    @Test("The seven seed clauses round-trip through CQL2 text and JSON", arguments: NamedQueryCatalog.builtInExamples)
    func seeds(query: NamedQuery) throws {
        let clause = try WhereClause(query.clause)
        #expect(try CQL2Filter(text: clause.cql2Text()).attributes == clause)
        #expect(try CQL2Filter(json: clause.cql2JSON()).attributes == clause)
        #expect(try CQL2Filter(text: clause.cql2Text()).conformanceClasses == [CQL2Conformance.basic, CQL2Conformance.text])
    }
}
