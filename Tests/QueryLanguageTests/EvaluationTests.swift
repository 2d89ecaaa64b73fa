import QueryLanguage
import Testing

@Suite("Evaluation over attribute values")
struct EvaluationTests {
    static let now = EvaluationContext(currentTimeMilliseconds: 1_700_000_000_123)  // 2023-11-14T22:13:20.123Z

    /// Evaluates `sql` on one record given by name.
    static func evaluate(_ sql: String, _ attributes: [String: AttributeValue] = [:]) throws -> TruthValue {
        let clause = try WhereClause(sql)
        var names = attributes.keys.sorted()
        for name in clause.referencedFields where !names.contains(name) { names.append(name) }
        return try clause.compile(fieldNames: names, context: now).evaluate(attributes: attributes)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var sql: String
        var record: [String: AttributeValue]
        var expected: TruthValue
        var testDescription: String { "\(sql) on \(record)" }
        init(_ sql: String, _ record: [String: AttributeValue] = [:], _ expected: TruthValue) {
            self.sql = sql
            self.record = record
            self.expected = expected
        }
    }

    static let threeValuedLogic: [Case] = [
        Case("x = 1", ["x": .null], .unknown),
        Case("x <> 1", ["x": .null], .unknown),
        Case("NOT x = 1", ["x": .null], .unknown),
        Case("x = 1 OR y = 1", ["x": .null, "y": .integer(1)], .true),
        Case("x = 1 OR y = 1", ["x": .null, "y": .integer(2)], .unknown),
        Case("x = 1 AND y = 1", ["x": .null, "y": .integer(2)], .false),
        Case("x = 1 AND y = 1", ["x": .null, "y": .integer(1)], .unknown),
        Case("x IS NULL", ["x": .null], .true),
        Case("x IS NOT NULL", ["x": .null], .false),
        Case("x IN (1, 2)", ["x": .null], .unknown),
        Case("x NOT IN (1, 2)", ["x": .null], .unknown),
        Case("x NOT IN (1, 2)", ["x": .integer(3)], .true),
        Case("x IN (1, 2.5)", ["x": .double(2.5)], .true),
        Case("x IN (1, y)", ["x": .integer(2), "y": .null], .unknown),
        Case("x IN (2, y)", ["x": .integer(2), "y": .null], .true),
        Case("x BETWEEN 1 AND 3", ["x": .null], .unknown),
        Case("x BETWEEN y AND 3", ["x": .integer(5), "y": .null], .false),
        Case("x BETWEEN y AND 3", ["x": .integer(2), "y": .null], .unknown),
        Case("x NOT BETWEEN 1 AND 3", ["x": .integer(5)], .true),
        Case("n LIKE 'a%'", ["n": .null], .unknown),
        Case("n NOT LIKE 'a%'", ["n": .null], .unknown),
        Case("x + 1 > 0", ["x": .null], .unknown),
        Case("x / 0 > 0", ["x": .integer(1)], .unknown),
        Case("x = 1", ["x": .string("1")], .unknown),
        Case("x = 1", [:], .unknown),
    ]

    @Test("SQL's three-valued logic for NULL", arguments: threeValuedLogic)
    func threeValued(_ example: Case) throws {
        #expect(try Self.evaluate(example.sql, example.record) == example.expected)
    }

    static let values: [Case] = [
        Case("x = 1", ["x": .double(1.0)], .true),
        Case("x > 9007199254740992", ["x": .integer(9_007_199_254_740_993)], .true),
        Case("x = 9007199254740992.0", ["x": .integer(9_007_199_254_740_993)], .false),
        Case("x + 1 > 0", ["x": .integer(.max)], .true),
        Case("7 / 2 = 3.5", [:], .true),
        Case("x < 1", ["x": .double(.nan)], .unknown),
        Case("-x = 5", ["x": .integer(-5)], .true),
        Case("n = 'abc'", ["n": .string("ABC")], .false),
        Case("n < 'b'", ["n": .string("abc")], .true),
        Case("UPPER(n) = 'ABC'", ["n": .string("aBc")], .true),
        Case("LOWER(n) = 'abc'", ["n": .string("aBc")], .true),
        Case("n LIKE 'a_c'", ["n": .string("abc")], .true),
        Case("n LIKE 'a_c'", ["n": .string("aéc")], .true),
        Case("n LIKE 'a_c'", ["n": .string("abbc")], .false),
        Case("n LIKE 'a%'", ["n": .string("A")], .false),
        Case("n LIKE '%'", ["n": .string("")], .true),
        Case("n LIKE '_'", ["n": .string("")], .false),
        Case("n LIKE '100!%' ESCAPE '!'", ["n": .string("100%")], .true),
        Case("n LIKE '100!%' ESCAPE '!'", ["n": .string("1000")], .false),
        Case("n LIKE '%a%b%c%'", ["n": .string("xxaxxbxxcxx")], .true),
        Case("n LIKE '%a%b%c%'", ["n": .string("xxcxxbxxaxx")], .false),
        Case(#"n LIKE 'a\%' ESCAPE '\'"#, ["n": .string("a%")], .true),
        Case("n LIKE '%日本'", ["n": .string("東京日本")], .true),
        Case("CHAR_LENGTH(n) = 5", ["n": .string("héllo")], .true),
        Case("SUBSTRING(n FROM 0 FOR 3) = 'he'", ["n": .string("hello")], .true),
        Case("SUBSTRING(n FROM 2) = 'ello'", ["n": .string("hello")], .true),
        Case("SUBSTRING(n FROM 10) = ''", ["n": .string("hello")], .true),
        Case("SUBSTRING(n FROM 2 FOR -1) IS NULL", ["n": .string("hello")], .true),
        Case("TRIM(n) = 'a'", ["n": .string("  a  ")], .true),
        Case("TRIM(LEADING '0' FROM n) = '120'", ["n": .string("00120")], .true),
        Case("TRIM(TRAILING FROM n) = '  a'", ["n": .string("  a  ")], .true),
        Case("ABS(x) = 5", ["x": .integer(-5)], .true),
        Case("ROUND(x) = 3", ["x": .double(2.5)], .true),
        Case("ROUND(x) = -3", ["x": .double(-2.5)], .true),
        Case("ROUND(x, 1) = 1.3", ["x": .double(1.25)], .true),
        Case("ROUND(x, -2) = 1300", ["x": .integer(1250)], .true),
        Case("ROUND(x, -2) = 1200", ["x": .integer(1249)], .true),
        Case("CAST(n AS INTEGER) = 12", ["n": .string(" 12 ")], .true),
        Case("CAST(x AS INTEGER) = 3", ["x": .double(2.5)], .true),
        Case("CAST(x AS SMALLINT) IS NULL", ["x": .integer(40_000)], .true),
        Case("CAST(x AS VARCHAR(3)) = '123'", ["x": .integer(12_345)], .true),
        Case("CAST(n AS DATE) = DATE '2020-01-02'", ["n": .string("2020-01-02 03:04:05")], .true),
        Case("d = DATE '2020-01-01'", ["d": .date(1_577_836_800_000)], .true),
        Case("d > TIMESTAMP '2020-01-01 00:00:00'", ["d": .date(1_577_836_800_001)], .true),
        Case("d < CURRENT_DATE", ["d": .date(1_699_920_000_000 - 1)], .true),
        Case("CURRENT_DATE = DATE '2023-11-14'", [:], .true),
        Case("CURRENT_TIMESTAMP = TIMESTAMP '2023-11-14 22:13:20.123'", [:], .true),
    ]

    @Test("Comparisons, LIKE and functions", arguments: values)
    func value(_ example: Case) throws {
        #expect(try Self.evaluate(example.sql, example.record) == example.expected)
    }

    @Test("The seed's clause over parcels")
    func seedClause() throws {
        let filter = try WhereClause("Roll_LandValue > 1000000 AND UseType = 'Residential'")
            .compile(fieldNames: ["OBJECTID", "UseType", "Roll_LandValue"])
        let records: [[AttributeValue]] = [
            [.integer(1), .string("Residential"), .integer(2_500_000)],
            [.integer(2), .string("Residential"), .double(999_999.5)],
            [.integer(3), .string("Government"), .integer(5_000_000)],
            [.integer(4), .string("Residential"), .null],
            [.integer(5), .string("Residential"), .double(1_000_000.5)],
        ]
        #expect(records.indices.filter { filter.matches(records[$0]) } == [0, 4])
        #expect(filter.evaluate(records[3]) == .unknown)
        #expect(filter.matches(records[3]) == false)
        #expect(filter.evaluate([.integer(6)]) == .unknown)
    }

    @Test("Field names resolve once, ignoring case; unknown ones are errors")
    func fieldResolution() throws {
        let clause = try WhereClause("usetype = 'Residential'")
        #expect(try clause.compile(fieldNames: ["UseType"]).matches([.string("Residential")]))
        let error = #expect(throws: QueryLanguageError.self) {
            try WhereClause("UseTyp = 'x'").compile(fieldNames: ["UseType", "TaxRateArea"])
        }
        #expect(error?.code == .unknownField)
        #expect(error?.message.contains("did you mean 'UseType'?") == true)
    }

    @Test("LIKE stays fast on patterns that make backtracking matchers explode")
    func likeWorstCase() throws {
        let pattern = String(repeating: "%a", count: 500) + "%b"  // 1,002 bytes: just under the pattern limit
        let filter = try WhereClause("n LIKE '\(pattern)'").compile(fieldNames: ["n"])
        #expect(filter.evaluate([.string(String(repeating: "a", count: 5_000))]) == .false)
        #expect(filter.evaluate([.string(String(repeating: "a", count: 5_000) + "b")]) == .true)
    }
}
