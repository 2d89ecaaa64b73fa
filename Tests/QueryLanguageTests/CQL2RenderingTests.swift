import QueryLanguage
import Testing

@Suite("CQL2 rendering: rewrites, refusals, conformance")
struct CQL2RenderingTests {
    static let rewrites: [(sql: String, text: String)] = [
        ("UPPER(n) = 'MAIN ST'", "CASEI(n) = CASEI('MAIN ST')"),
        ("'MAIN ST' <> UPPER(n)", "CASEI(n) <> CASEI('MAIN ST')"),
        ("LOWER(n) IN ('a', 'b')", "CASEI(n) IN (CASEI('a'), CASEI('b'))"),
        ("UPPER(n) LIKE '%MAIN%'", "CASEI(n) LIKE CASEI('%MAIN%')"),
        ("UPPER(a) = UPPER(b)", "CASEI(a) = CASEI(b)"),
        ("name LIKE '100!%' ESCAPE '!'", #"name LIKE '100\%'"#),
        ("name LIKE 'a!!b' ESCAPE '!'", "name LIKE 'a!b'"),
        (#"name LIKE 'C:\temp%'"#, #"name LIKE 'C:\\temp%'"#),
        (#"name LIKE '\_x' ESCAPE '\'"#, #"name LIKE '\_x'"#),
        ("x BETWEEN 'a' AND 'm'", "x >= 'a' AND x <= 'm'"),
        ("d NOT BETWEEN DATE '2020-01-01' AND DATE '2020-12-31'",
            "NOT (d >= DATE('2020-01-01') AND d <= DATE('2020-12-31'))"),
        ("-x > 3", "-1 * x > 3"),
        ("a - -(b + c) > 0", "a - -1 * (b + c) > 0"),
        ("5 < x", "x > 5"),
        ("DATE '2020-01-01' <= d", "d >= DATE('2020-01-01')"),
        ("\"select\" = 1 AND \"my field\" = 'x' AND Straße = 'y'", #""select" = 1 AND "my field" = 'x' AND "Straße" = 'y'"#),
        ("NOT NOT a = 1", "NOT (NOT (a = 1))"),
        ("a = 1 OR (b = 2 OR c = 3)", "a = 1 OR (b = 2 OR c = 3)"),
    ]

    @Test("Constructs are rewritten into what CQL2 says", arguments: rewrites)
    func rewrite(sql: String, text: String) throws {
        let clause = try WhereClause(sql)
        #expect(try clause.cql2Text() == text)
        #expect(try WhereClause(cql2Text: text).cql2Text() == text)
    }

    @Test("What CQL2 can't say is refused with unsupported_in_target", arguments: [
        "SUBSTRING(n FROM 1 FOR 2) = 'ab'", "TRIM(n) = 'a'", "CHAR_LENGTH(n) > 3", "ABS(a) > 1", "ROUND(a) = 1",
        "CAST(a AS INTEGER) = 1", "UPPER(n) = 'Main'", "UPPER(n) < 'M'", "LOWER(n) = 'ÉTÉ'", "UPPER(n) = LOWER(m)",
        "d < CURRENT_DATE", "n = 'ends with \\'", "n = 'a\\''b'",
    ])
    func unsupported(sql: String) throws {
        let clause = try WhereClause(sql)
        let error = #expect(throws: QueryLanguageError.self) { try clause.cql2Text() }
        #expect(error?.code == .unsupportedInTarget)
        #expect(error?.message.contains("can't be written as CQL2") == true || error?.message.contains("CQL2-JSON") == true)
    }

    @Test("Backslashes CQL2 text can't write still go as CQL2-JSON")
    func backslashInJSON() throws {
        let clause = try WhereClause(#"n = 'ends with \'"#)
        #expect(try clause.cql2JSON() == #"{"op":"=","args":[{"property":"n"},"ends with \\"]}"#)
    }

    @Test("CURRENT_DATE and CURRENT_TIMESTAMP become literals when the time is given")
    func currentTime() throws {
        let options = CQL2Options(currentTimeMilliseconds: 1_700_000_000_123)
        let clause = try WhereClause("d < CURRENT_DATE OR t > CURRENT_TIMESTAMP")
        #expect(try clause.cql2Text(options) == "d < DATE('2023-11-14') OR t > TIMESTAMP('2023-11-14T22:13:20.123Z')")
    }

    @Test("JSON strings are escaped correctly")
    func jsonEscaping() throws {
        let clause = try WhereClause("n = 'quote \" backslash \\ tab \t newline \n bell \u{7} é 日本'")
        #expect(try clause.cql2JSON()
            == #"{"op":"=","args":[{"property":"n"},"quote \" backslash \\ tab \t newline \n bell \u0007 é 日本"]}"#)
        let value = try clause.cql2JSONValue()
        guard case .object(let members) = value else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["op", "args"])
    }

    @Test("Conformance classes follow what the filter uses")
    func conformance() throws {
        func classes(_ sql: String) throws -> Set<String> { Set(try WhereClause(sql).cql2ConformanceClasses()) }
        #expect(try classes("a = 1") == [CQL2Conformance.basic])
        #expect(try classes("a IS NULL AND b <> 'x'") == [CQL2Conformance.basic])
        #expect(try classes("a IN (1, 2)") == [CQL2Conformance.basic, CQL2Conformance.advancedComparison])
        #expect(try classes("UPPER(n) = 'X'") == [CQL2Conformance.basic, CQL2Conformance.caseInsensitive])
        #expect(try classes("a + 1 > 2") == [CQL2Conformance.basic, CQL2Conformance.arithmetic, CQL2Conformance.propertyProperty])
        #expect(try classes("a = b") == [CQL2Conformance.basic, CQL2Conformance.propertyProperty])
        #expect(try classes("5 < a") == [CQL2Conformance.basic])
    }
}
