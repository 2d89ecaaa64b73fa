import PropertyBased
import QueryLanguage
import Testing

@Suite("Properties")
struct PropertyTests {
    static let context = EvaluationContext(currentTimeMilliseconds: 1_700_000_000_123)

    @Test("parse -> render -> parse gives back the tree, over the whole grammar")
    func roundTrip() async {
        await propertyCheck(count: 500, input: RandomTrees.anyConditions) { expression in
            let clause = try WhereClause(expression: expression)
            let sql = clause.arcGISSQL
            let reparsed = try WhereClause(sql, limits: ClauseLimits(maxClauseBytes: ClauseLimits.byteCeiling))
            #expect(reparsed.expression == expression, "\(sql)")
            #expect(reparsed.arcGISSQL == sql)
        }
    }

    @Test("The ArcGIS SQL and CQL2 renderings select the same records")
    func renderingsEvaluateAlike() async {
        await propertyCheck(count: 300, input: RandomTrees.typedConditions, RandomTrees.typedRecords) { expression, records in
            let clause = try WhereClause(expression: expression)
            let viaSQL = try WhereClause(clause.arcGISSQL).compile(fieldNames: RandomTrees.typedFields, context: Self.context)
            let text = try clause.cql2Text()
            let viaCQL2 = try WhereClause(cql2Text: text).compile(fieldNames: RandomTrees.typedFields, context: Self.context)
            let direct = try clause.compile(fieldNames: RandomTrees.typedFields, context: Self.context)
            let disagreements = records.filter { record in
                viaSQL.evaluate(record) != viaCQL2.evaluate(record) || viaSQL.evaluate(record) != direct.evaluate(record)
            }
            #expect(disagreements.isEmpty, "\(clause.arcGISSQL) vs \(text): \(disagreements.prefix(3))")
        }
    }

    @Test("CQL2 text reaches a fixed point after one reading")
    func cql2FixedPoint() async {
        await propertyCheck(count: 300, input: RandomTrees.typedConditions) { expression in
            let first = try WhereClause(cql2Text: try WhereClause(expression: expression).cql2Text())
            let text = try first.cql2Text()
            #expect(try WhereClause(cql2Text: text).cql2Text() == text)
            #expect(try WhereClause(cql2Text: text).cql2JSON() == first.cql2JSON())
        }
    }

    static let tokens = [
        "UseType", "Roll_LandValue", "a", "\"x y\"", "'Residential'", "'it''s'", "'", "\"", "1000000", "-", "+", "*",
        "/", "1.5E3", ".5", "=", "<>", "<", ">=", "(", ")", ",", " AND ", " OR ", " NOT ", " IN ", " BETWEEN ",
        " LIKE ", " ESCAPE ", " IS ", " NULL", "DATE '2020-01-01'", "TIMESTAMP", "UPPER(", "SUBSTRING(", " FROM ",
        " FOR ", "TRIM(", "LEADING", "CAST(", " AS ", "INTEGER", "CURRENT_DATE", "SELECT", ";", "--", "/*", "é", "\u{0}",
        "日本", "%", "_", "!", "\\", " ", "\n",
    ]
    static let tokenSoup = Gen.element(of: tokens).array(of: 0...24).map { $0.compactMap { $0 }.joined() }

    @Test("Any string gives a clause that round-trips, or a typed error")
    func arbitraryText() async {
        await propertyCheck(count: 2_000, input: Self.tokenSoup) { text in
            guard let clause = try? WhereClause(text) else { return }
            let reparsed = try WhereClause(clause.arcGISSQL, limits: ClauseLimits(maxClauseBytes: ClauseLimits.byteCeiling))
            #expect(reparsed == clause, "\(text) -> \(clause.arcGISSQL)")
            _ = try? clause.cql2JSON()
            _ = try? WhereClause(cql2Text: text)
        }
    }

    @Test("Any bytes give a clause or a typed error")
    func arbitraryBytes() async {
        await propertyCheck(count: 2_000, input: Gen.uint8(in: 0...255).array(of: 0...64)) { bytes in
            guard let clause = try? WhereClause(utf8: bytes) else { return }
            let reparsed = try WhereClause(clause.arcGISSQL)
            #expect(reparsed == clause)
        }
    }
}
