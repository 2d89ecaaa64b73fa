import QueryLanguage
import Testing

@Suite("Parsing and normalized ArcGIS SQL")
struct ParserTests {
    static let seedClauses = [
        "UseType = 'Government'", "UseType = 'Residential'", "UseType = 'Irrigated Farm'", "TaxRateArea = 10853",
        "TaxRateArea = 10860", "Roll_LandValue > 1000000", "Roll_LandValue < 1000000", "POP2000 > 1810000",
    ]

    @Test("The seed's clauses read and render unchanged", arguments: seedClauses)
    func seedClause(text: String) throws {
        #expect(try WhereClause(text).arcGISSQL == text)
    }

    static let normalizations: [(input: String, normalized: String)] = [
        ("usetype='Government'", "usetype = 'Government'"),
        ("a = 1 and (b = 2 or c = 3) and not d = 4", "a = 1 AND (b = 2 OR c = 3) AND NOT d = 4"),
        ("(a = 1 and b = 2) or c = 3", "a = 1 AND b = 2 OR c = 3"),
        ("a = 1 and (b = 2 and c = 3)", "a = 1 AND (b = 2 AND c = 3)"),
        ("not (a = 1 or b = 2)", "NOT (a = 1 OR b = 2)"),
        ("not not a = 1", "NOT NOT a = 1"),
        ("x between -5 and 2.50", "x BETWEEN -5 AND 2.5"),
        ("x not between 1 and 2", "x NOT BETWEEN 1 AND 2"),
        ("x in (1,2 , 3)", "x IN (1, 2, 3)"),
        ("x not in ('a','b')", "x NOT IN ('a', 'b')"),
        ("name like 'Res%'", "name LIKE 'Res%'"),
        ("name not like '100!%' escape '!'", "name NOT LIKE '100!%' ESCAPE '!'"),
        ("name like 'it''s\\_%' escape '\\'", "name LIKE 'it''s\\_%' ESCAPE '\\'"),
        ("x is null", "x IS NULL"),
        ("x is not null", "x IS NOT NULL"),
        ("a - -5 * -(b + 1) > - -3", "a - -5 * -(b + 1) > 3"),
        ("(a - b) - c = a - (b - c)", "a - b - c = a - (b - c)"),
        ("a * (b + c) / 2 >= 1e3", "a * (b + c) / 2 >= 1000.0"),
        ("-(-a) < 0", "-(-a) < 0"),
        ("x = .5", "x = 0.5"),
        ("x = 1E-7", "x = 1E-07"),
        ("x = 99999999999999999999", "x = 1E+20"),
        ("-9223372036854775808 < x", "-9223372036854775808 < x"),
        ("x != 1", "x <> 1"),
        ("name = 'O''Brien'", "name = 'O''Brien'"),
        ("d = date '2020-02-29'", "d = DATE '2020-02-29'"),
        ("t > timestamp '2012-05-29 15:14:25'", "t > TIMESTAMP '2012-05-29 15:14:25'"),
        ("t > timestamp '2012-05-29T15:14:25.5Z'", "t > TIMESTAMP '2012-05-29 15:14:25.500'"),
        ("t > timestamp '2012-05-29'", "t > TIMESTAMP '2012-05-29 00:00:00'"),
        ("upper(n) = 'X'", "UPPER(n) = 'X'"),
        ("lower(n) = 'x'", "LOWER(n) = 'x'"),
        ("character_length(n) > 3", "CHAR_LENGTH(n) > 3"),
        ("abs(a) < round(b) + round(c, -2)", "ABS(a) < ROUND(b) + ROUND(c, -2)"),
        ("substring(n, 2, 3) = 'abc'", "SUBSTRING(n FROM 2 FOR 3) = 'abc'"),
        ("substring(n from 2) = 'bc'", "SUBSTRING(n FROM 2) = 'bc'"),
        ("trim(n) = 'a'", "TRIM(n) = 'a'"),
        ("trim(both ' ' from n) = 'a'", "TRIM(BOTH ' ' FROM n) = 'a'"),
        ("trim(leading '0' from n) = '1'", "TRIM(LEADING '0' FROM n) = '1'"),
        ("trim(trailing from n) = 'a'", "TRIM(TRAILING FROM n) = 'a'"),
        ("trim('x' from n) = 'a'", "TRIM(BOTH 'x' FROM n) = 'a'"),
        ("cast(a as int) = 1", "CAST(a AS INTEGER) = 1"),
        ("cast(a as double precision) = 1", "CAST(a AS FLOAT) = 1"),
        ("cast(a as varchar(10)) = '1'", "CAST(a AS VARCHAR(10)) = '1'"),
        ("cast(n as date) = date '2020-01-01'", "CAST(n AS DATE) = DATE '2020-01-01'"),
        ("d < current_date", "d < CURRENT_DATE"),
        ("d < CURRENT_DATE()", "d < CURRENT_DATE"),
        ("t < current_timestamp", "t < CURRENT_TIMESTAMP"),
        ("\"select\" = 1", "\"select\" = 1"),
        ("\"STATE_NAME\" = 'x'", "STATE_NAME = 'x'"),
        ("\"my \"\"odd\"\" field\" = 1", "\"my \"\"odd\"\" field\" = 1"),
        ("\"Leading\" = 1", "\"Leading\" = 1"),
        ("Parcels.APN = '1'", "Parcels.APN = '1'"),
        ("Straße = 'x'", "\"Straße\" = 'x'"),
        ("1=1", "1 = 1"),
        ("a\n=\t1", "a = 1"),
    ]

    @Test("Clauses normalize to canonical ArcGIS SQL that reads back equal", arguments: normalizations)
    func normalizes(input: String, normalized: String) throws {
        let clause = try WhereClause(input)
        #expect(clause.arcGISSQL == normalized)
        #expect(try WhereClause(normalized) == clause)
    }

    @Test("Quotes followed by combining marks are still doubled (found by the fuzzer)")
    func quotesBeforeCombiningMarks() throws {
        // '\u{302} is one Character in Swift: a Character-level replace would leave the quote undoubled.
        let string = try WhereClause("n = 'x''\u{302} OR a = ''1'")
        #expect(string.arcGISSQL == "n = 'x''\u{302} OR a = ''1'")
        #expect(try WhereClause(string.arcGISSQL) == string)
        let name = try WhereClause("\"a\"\"\u{302}b\" = 1")
        #expect(name.referencedFields == ["a\"\u{302}b"])
        #expect(try WhereClause(name.arcGISSQL) == name)
        #expect(try WhereClause(cql2Text: try string.cql2Text()) == string)
    }

    @Test("AND binds tighter than OR; chains are single nodes")
    func precedence() throws {
        let clause = try WhereClause("a = 1 OR b = 2 AND c = 3 OR d = 4")
        guard case .or(let terms) = clause.expression.node else {
            Issue.record("expected OR at the top, got \(clause.expression.node)")
            return
        }
        #expect(terms.count == 3)
        guard case .and(let factors) = terms[1].node else {
            Issue.record("expected AND in the middle")
            return
        }
        #expect(factors.count == 2)
    }

    @Test("Minus on a number folds into the literal; on anything else it stays")
    func negativeLiterals() throws {
        #expect(try WhereClause("x > -5").expression == WhereClause("x > -(5)").expression)
        let clause = try WhereClause("-x > -5")
        guard case .comparison(_, let left, let right) = clause.expression.node else {
            Issue.record("expected a comparison")
            return
        }
        #expect(left.node == .negate(FilterExpression(.field("x"))))
        #expect(right.node == .literal(.integer(-5)))
    }

    @Test("Positions in the text are kept for messages but are not part of equality")
    func positions() throws {
        let spaced = try WhereClause("   UseType   =   'Residential'")
        let compact = try WhereClause("UseType='Residential'")
        #expect(spaced == compact)
        #expect(spaced.expression.sourceOffset == 3)
        #expect(spaced.referencedFields == ["UseType"])
    }

    @Test("CQL2 text reads into the same tree")
    func cql2Reading() throws {
        let fromCQL2 = try WhereClause(cql2Text: #"UseType = 'Residential' AND "Roll_LandValue" > 1000000"#)
        #expect(fromCQL2 == (try WhereClause("UseType = 'Residential' AND Roll_LandValue > 1000000")))
        #expect(try WhereClause(cql2Text: "d >= DATE('2020-01-01')") == WhereClause("d >= DATE '2020-01-01'"))
        #expect(try WhereClause(cql2Text: #"n LIKE 'a\%b\\c%'"#).arcGISSQL == #"n LIKE 'a\%b\\c%' ESCAPE '\'"#)
        #expect(try WhereClause(cql2Text: #"n = 'it\'s'"#) == WhereClause("n = 'it''s'"))
        #expect(try WhereClause(cql2Text: "eo:cloud_cover < 10").referencedFields == ["eo:cloud_cover"])
    }
}
