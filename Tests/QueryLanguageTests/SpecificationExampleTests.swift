import QueryLanguage
import Testing

/// Table tests from the specifications' own examples: Esri's "SQL reference for query expressions used in
/// ArcGIS" and its table of functions standardized queries accept, and OGC 21-065 (CQL2)'s examples.
@Suite("Specification examples")
struct SpecificationExampleTests {
    /// Esri's examples (field names as in the docs), and their normalized form.
    static let arcGIS: [(example: String, normalized: String)] = [
        ("\"STATE_NAME\" = 'California'", "STATE_NAME = 'California'"),
        ("UPPER(\"STATE_NAME\") = 'RHODE ISLAND'", "UPPER(STATE_NAME) = 'RHODE ISLAND'"),
        ("LOWER(\"STATE_NAME\") = 'rhode island'", "LOWER(STATE_NAME) = 'rhode island'"),
        ("\"STATE_NAME\" LIKE 'Miss%'", "STATE_NAME LIKE 'Miss%'"),
        ("\"OWNER_NAME\" LIKE '_atherine smith'", "OWNER_NAME LIKE '_atherine smith'"),
        ("\"STATE_NAME\" IN ('Alabama', 'Alaska', 'California', 'Florida')",
            "STATE_NAME IN ('Alabama', 'Alaska', 'California', 'Florida')"),
        ("\"STATE_NAME\" NOT IN ('Alabama', 'Alaska')", "STATE_NAME NOT IN ('Alabama', 'Alaska')"),
        ("\"POPULATION\" IS NULL", "POPULATION IS NULL"),
        ("\"AREA\" >= 1500 AND \"AREA\" <= 3000", "AREA >= 1500 AND AREA <= 3000"),
        ("\"AREA\" BETWEEN 1500 AND 3000", "AREA BETWEEN 1500 AND 3000"),
        ("\"AREA\" > (\"PERIMETER\" * 100)", "AREA > PERIMETER * 100"),
        ("NOT \"STATE_NAME\" = 'Colorado'", "NOT STATE_NAME = 'Colorado'"),
        ("\"NAME\" = 'Alfie''s Pub'", "NAME = 'Alfie''s Pub'"),
        ("Datefield = date '2012-05-29'", "Datefield = DATE '2012-05-29'"),
        ("Datefield = timestamp '2012-05-29 15:14:25'", "Datefield = TIMESTAMP '2012-05-29 15:14:25'"),
        ("Datefield < CURRENT_DATE", "Datefield < CURRENT_DATE"),
        ("Timestampfield < CURRENT_TIMESTAMP", "Timestampfield < CURRENT_TIMESTAMP"),
        ("ABS(Numericfield) > 5", "ABS(Numericfield) > 5"),
        ("ROUND(Numericfield, 2) = 1.25", "ROUND(Numericfield, 2) = 1.25"),
        ("CAST(Numericfield AS INT) = 1424", "CAST(Numericfield AS INTEGER) = 1424"),
        ("CAST(Numericfield AS FLOAT) > 1.5", "CAST(Numericfield AS FLOAT) > 1.5"),
        ("CHAR_LENGTH(Stringfield) > 10", "CHAR_LENGTH(Stringfield) > 10"),
        ("SUBSTRING(Stringfield FROM 1 FOR 3) = 'New'", "SUBSTRING(Stringfield FROM 1 FOR 3) = 'New'"),
        ("TRIM(BOTH ' ' FROM Stringfield) = 'Main'", "TRIM(BOTH ' ' FROM Stringfield) = 'Main'"),
        ("TRIM(LEADING ' ' FROM Stringfield) = 'Main'", "TRIM(LEADING ' ' FROM Stringfield) = 'Main'"),
    ]

    @Test("Esri's examples parse and normalize", arguments: arcGIS)
    func arcGISExample(example: String, normalized: String) throws {
        let clause = try WhereClause(example)
        #expect(clause.arcGISSQL == normalized)
        #expect(try WhereClause(normalized) == clause)
    }

    /// What Esri lists as outside standardized queries, or database-specific, is refused.
    @Test("Outside the subset is refused", arguments: [
        "POP_2010 = (SELECT min(POP_2010) FROM counties)", "EXTRACT(MONTH FROM Datefield) = 11",
        "POWER(Numericfield, 2) = 16", "CONCAT(a, b) = 'ab'", "POSITION('a' IN b) = 1", "Datefield = #05-29-2012#",
        "[STATE_NAME] = 'California'", "STATE_NAME = 'a' || 'b'", "MOD(a, 2) = 0",
    ])
    func outsideTheSubset(example: String) {
        #expect(throws: QueryLanguageError.self) { try WhereClause(example) }
    }

    struct CQL2Example: Sendable, CustomTestStringConvertible {
        /// The example as the CQL2 standard writes it.
        var specText: String
        /// The same condition in ArcGIS SQL.
        var sql: String
        /// What this module writes for it.
        var text: String
        var json: String
        var testDescription: String { specText }
    }

    static let cql2: [CQL2Example] = [
        CQL2Example(specText: "city='Toronto'", sql: "city = 'Toronto'", text: "city = 'Toronto'",
            json: #"{"op":"=","args":[{"property":"city"},"Toronto"]}"#),
        CQL2Example(specText: "balance-150.0 > 0", sql: "balance - 150.0 > 0", text: "balance - 150.0 > 0",
            json: #"{"op":">","args":[{"op":"-","args":[{"property":"balance"},150.0]},0]}"#),
        CQL2Example(specText: "updated >= date('1970-01-01')", sql: "updated >= DATE '1970-01-01'",
            text: "updated >= DATE('1970-01-01')", json: #"{"op":">=","args":[{"property":"updated"},{"date":"1970-01-01"}]}"#),
        CQL2Example(specText: "name LIKE 'Smith%'", sql: "name LIKE 'Smith%'", text: "name LIKE 'Smith%'",
            json: #"{"op":"like","args":[{"property":"name"},"Smith%"]}"#),
        CQL2Example(specText: "depth BETWEEN 100.0 and 150.0", sql: "depth BETWEEN 100.0 AND 150.0",
            text: "depth BETWEEN 100.0 AND 150.0", json: #"{"op":"between","args":[{"property":"depth"},100.0,150.0]}"#),
        CQL2Example(specText: "cityName IN ('Toronto','Frankfurt','Tokyo','New York')",
            sql: "cityName IN ('Toronto', 'Frankfurt', 'Tokyo', 'New York')",
            text: "cityName IN ('Toronto', 'Frankfurt', 'Tokyo', 'New York')",
            json: #"{"op":"in","args":[{"property":"cityName"},["Toronto","Frankfurt","Tokyo","New York"]]}"#),
        CQL2Example(specText: "category NOT IN (1,2,3,4)", sql: "category NOT IN (1, 2, 3, 4)",
            text: "category NOT IN (1, 2, 3, 4)", json: #"{"op":"not","args":[{"op":"in","args":[{"property":"category"},[1,2,3,4]]}]}"#),
        CQL2Example(specText: "CASEI(road_class) IN (CASEI('Οδος'),CASEI('Straße'))",
            sql: "UPPER(road_class) IN (UPPER('Οδος'), UPPER('Straße'))",
            text: "CASEI(road_class) IN (CASEI('Οδος'), CASEI('Straße'))",
            json: #"{"op":"in","args":[{"op":"casei","args":[{"property":"road_class"}]},[{"op":"casei","args":["Οδος"]},{"op":"casei","args":["Straße"]}]]}"#),
        CQL2Example(specText: "vehicle_height > (bridge_clearance-1)", sql: "vehicle_height > bridge_clearance - 1",
            text: "vehicle_height > bridge_clearance - 1",
            json: #"{"op":">","args":[{"property":"vehicle_height"},{"op":"-","args":[{"property":"bridge_clearance"},1]}]}"#),
        CQL2Example(specText: "floors>5", sql: "floors > 5", text: "floors > 5", json: #"{"op":">","args":[{"property":"floors"},5]}"#),
        CQL2Example(specText: "taxes <= 500", sql: "taxes <= 500", text: "taxes <= 500", json: #"{"op":"<=","args":[{"property":"taxes"},500]}"#),
        CQL2Example(specText: "owner NOT LIKE '%Mike%'", sql: "owner NOT LIKE '%Mike%'", text: "owner NOT LIKE '%Mike%'",
            json: #"{"op":"not","args":[{"op":"like","args":[{"property":"owner"},"%Mike%"]}]}"#),
        CQL2Example(specText: "NOT (floors<5)", sql: "NOT floors < 5", text: "NOT (floors < 5)",
            json: #"{"op":"not","args":[{"op":"<","args":[{"property":"floors"},5]}]}"#),
        CQL2Example(specText: "(owner LIKE 'mike%' OR owner LIKE 'Mike%') AND floors<4",
            sql: "(owner LIKE 'mike%' OR owner LIKE 'Mike%') AND floors < 4",
            text: "(owner LIKE 'mike%' OR owner LIKE 'Mike%') AND floors < 4",
            json: #"{"op":"and","args":[{"op":"or","args":[{"op":"like","args":[{"property":"owner"},"mike%"]},{"op":"like","args":[{"property":"owner"},"Mike%"]}]},{"op":"<","args":[{"property":"floors"},4]}]}"#),
        CQL2Example(specText: "built > TIMESTAMP('2012-06-05T00:00:00Z')", sql: "built > TIMESTAMP '2012-06-05 00:00:00'",
            text: "built > TIMESTAMP('2012-06-05T00:00:00Z')",
            json: #"{"op":">","args":[{"property":"built"},{"timestamp":"2012-06-05T00:00:00Z"}]}"#),
        CQL2Example(specText: "value IS NULL", sql: "value IS NULL", text: "value IS NULL",
            json: #"{"op":"isNull","args":[{"property":"value"}]}"#),
        CQL2Example(specText: "value IS NOT NULL", sql: "value IS NOT NULL", text: "value IS NOT NULL",
            json: #"{"op":"not","args":[{"op":"isNull","args":[{"property":"value"}]}]}"#),
        CQL2Example(specText: "name NOT LIKE 'foo%' AND value > 10", sql: "name NOT LIKE 'foo%' AND value > 10",
            text: "name NOT LIKE 'foo%' AND value > 10",
            json: #"{"op":"and","args":[{"op":"not","args":[{"op":"like","args":[{"property":"name"},"foo%"]}]},{"op":">","args":[{"property":"value"},10]}]}"#),
        CQL2Example(specText: "eo:cloud_cover BETWEEN 0.1 AND 0.2", sql: "\"eo:cloud_cover\" BETWEEN 0.1 AND 0.2",
            text: "\"eo:cloud_cover\" BETWEEN 0.1 AND 0.2",
            json: #"{"op":"between","args":[{"property":"eo:cloud_cover"},0.1,0.2]}"#),
    ]

    @Test("CQL2's examples: the same clause from SQL renders as the standard writes it", arguments: cql2)
    func cql2Example(_ example: CQL2Example) throws {
        let fromSQL = try WhereClause(example.sql)
        #expect(try fromSQL.cql2Text() == example.text)
        #expect(try fromSQL.cql2JSON() == example.json)
        let fromSpec = try WhereClause(cql2Text: example.specText)
        #expect(try fromSpec.cql2JSON() == example.json)
        #expect(try WhereClause(cql2Text: example.text).cql2Text() == example.text)
    }

    @Test("The seed's queries in CQL2")
    func seedInCQL2() throws {
        let clause = try WhereClause("Roll_LandValue > 1000000 AND UseType = 'Residential'")
        #expect(try clause.cql2Text() == "Roll_LandValue > 1000000 AND UseType = 'Residential'")
        #expect(try clause.cql2JSON() == #"{"op":"and","args":[{"op":">","args":[{"property":"Roll_LandValue"},1000000]},{"op":"=","args":[{"property":"UseType"},"Residential"]}]}"#)
        #expect(try clause.cql2ConformanceClasses() == [CQL2Conformance.basic])
    }
}
