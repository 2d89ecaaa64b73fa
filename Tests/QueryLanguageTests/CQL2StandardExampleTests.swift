import QueryLanguage
import Testing

/// Filters as OGC 21-065r2 (CQL2) writes them in its examples, read verbatim.
@Suite("CQL2 standard examples")
struct CQL2StandardExampleTests {
    /// Text examples, with how many spatial predicates each has.
    static let text: [(filter: String, spatial: Int)] = [
        ("city='Toronto'", 0),
        ("balance-150.0 > 0", 0),
        ("updated >= date('1970-01-01')", 0),
        ("geometry IS NOT NULL", 0),
        ("name LIKE 'Smith%'", 0),
        ("depth BETWEEN 100.0 and 150.0", 0),
        ("cityName IN ('Toronto','Frankfurt','Tokyo','New York')", 0),
        ("category NOT IN (1,2,3,4)", 0),
        ("CASEI(road_class) IN (CASEI('Οδος'),CASEI('Straße'))", 0),
        ("\"landsat:scene_id\" = 'LC82030282019133LGN00'", 0),
        ("eo:cloud_cover BETWEEN 0.1 AND 0.2", 0),
        ("S_INTERSECTS(geometry,POINT(36.319836 32.288087))", 1),
        ("S_INTERSECTS(geometry,POLYGON((-10.0 50.0,-10.0 56.0,-5.0 56.0,-5.0 50.0,-10.0 50.0)))", 1),
        ("S_CROSSES(road,POLYGON((43.7286 -79.2986, 43.7311 -79.2996, 43.7323 -79.2972, 43.7286 -79.2986)))", 1),
        ("S_INTERSECTS(footprint,BBOX(-128.098193,-1.1,-99999.0,180.0,90.0,100000.0))", 1),
        ("floors>5 AND S_WITHIN(geometry,BBOX(-118,33.8,-117.9,34))", 1),
        ("collection = 'landsat8_l1tp' AND gsd <= 30 AND eo:cloud_cover <= 10 AND "
            + "S_INTERSECTS(geometry, POLYGON((43.5845 -79.5442, 43.6079 -79.4893, 43.5677 -79.4632, 43.5845 -79.5442)))", 1),
    ]

    @Test("Text examples read", arguments: text)
    func readsText(filter: String, spatial: Int) throws {
        let read = try CQL2Filter(text: filter)
        #expect(read.spatialPredicates.count == spatial)
        #expect((read.attributes == nil) == (spatial == 1 && !filter.contains(" AND ")))
    }

    @Test("JSON examples read")
    func readsJSON() throws {
        let point = try CQL2Filter(json: #"""
            {"op":"s_intersects","args":[{"property":"geometry"},{"type":"Point","coordinates":[36.319836,32.288087]}]}
            """#)
        #expect(point.spatialPredicates.map(\.geometry) == [.point([36.319836, 32.288087])])
        let like = try CQL2Filter(json: #"{"op":"like","args":[{"property":"name"},"Smith%"]}"#)
        #expect(like.attributes == (try WhereClause(cql2Text: "name LIKE 'Smith%'")))
        let range = try CQL2Filter(json: #"{"op":"between","args":[{"property":"eo:cloud_cover"},0.1,0.2]}"#)
        #expect(range.attributes == (try WhereClause(cql2Text: "eo:cloud_cover BETWEEN 0.1 AND 0.2")))
    }

    @Test("Temporal, array and other functions are refused as unknown, naming what is read", arguments: [
        "T_BEFORE(updated, DATE('2020-01-01'))", "A_CONTAINS(layer:ids, ('a', 'b'))", "avg(windSpeed) < 4",
    ])
    func unsupported(filter: String) {
        let error = #expect(throws: QueryLanguageError.self) { try CQL2Filter(text: filter) }
        #expect(error?.code == .unknownFunction)
        #expect(error?.column == 1)
        #expect(error?.message.contains("you can use are CASEI, S_INTERSECTS, S_DISJOINT") == true, "\(error?.message ?? "")")
    }
}
