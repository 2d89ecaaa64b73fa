import QueryLanguage
import Testing

@Suite("Parse errors: typed, with a column and a message a person can act on")
struct ParseErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var input: String
        var code: QueryLanguageError.Code
        var column: Int?
        var says: String
        var testDescription: String { input.isEmpty ? "(empty)" : input }
    }

    static let cases: [Case] = [
        Case(input: "UseType = 'Government", code: .unterminatedString, column: 11,
            says: "unterminated string starting at column 11"),
        Case(input: "POP2000 > 1810000 AND NAME = 'Los Angeles", code: .unterminatedString, column: 30,
            says: "unterminated string starting at column 30"),
        Case(input: "\"UseType = 1", code: .unterminatedIdentifier, column: 1, says: "unterminated field name"),
        Case(input: "a = 1; DROP TABLE parcels", code: .forbiddenConstruct, column: 6, says: "';' is not allowed"),
        Case(input: "a = 1 -- comment", code: .forbiddenConstruct, column: 7, says: "comments are not allowed"),
        Case(input: "a = 1 /* x */", code: .forbiddenConstruct, column: 7, says: "comments are not allowed"),
        Case(input: "a IN (SELECT b FROM t)", code: .forbiddenConstruct, column: 7, says: "subqueries"),
        Case(input: "POP_2010 = (SELECT min(POP_2010) FROM counties)", code: .forbiddenConstruct, column: 13,
            says: "subqueries"),
        Case(input: "a = 1 UNION SELECT 1", code: .forbiddenConstruct, column: 7, says: "subqueries"),
        Case(input: "EXISTS (SELECT 1)", code: .forbiddenConstruct, column: 1, says: "subqueries"),
        Case(input: "CONCAT(a, b) = 'x'", code: .unknownFunction, column: 1, says: "unknown function 'CONCAT'"),
        Case(input: "EXTRACT(MONTH FROM Datefield) = 11", code: .unknownFunction, column: 1, says: "ABS, CAST"),
        Case(input: "POWER(Numericfield, 2) = 16", code: .unknownFunction, column: 1, says: "unknown function 'POWER'"),
        Case(input: "x = NULL", code: .nullComparison, column: 5, says: "write x IS NULL"),
        Case(input: "x <> NULL", code: .nullComparison, column: 6, says: "write x IS NOT NULL"),
        Case(input: "x IN (1, NULL)", code: .nullComparison, column: 10, says: "IS NULL"),
        Case(input: "a = 1 b", code: .syntaxError, column: 7, says: "unexpected 'b' at column 7"),
        Case(input: "a =", code: .syntaxError, column: 4, says: "ends at column 4"),
        Case(input: "a = 1 AND", code: .syntaxError, column: 10, says: "ends at column 10"),
        Case(input: "(a = 1", code: .syntaxError, column: 7, says: "to close the '(' at column 1"),
        Case(input: "a = b = c", code: .syntaxError, column: 7, says: "can't be chained"),
        Case(input: "a NOT = 1", code: .syntaxError, column: 3, says: "IN, BETWEEN or LIKE"),
        Case(input: "a IS 1", code: .syntaxError, column: 6, says: "expected NULL"),
        Case(input: "x IN ()", code: .syntaxError, column: 7, says: "IN list at column 7 is empty"),
        Case(input: "a BETWEEN 1 OR 2", code: .syntaxError, column: 13, says: "x BETWEEN low AND high"),
        Case(input: "TRUE", code: .syntaxError, column: 1, says: "boolean literals"),
        Case(input: "a LIKE b", code: .invalidPattern, column: 8, says: "quoted pattern"),
        Case(input: "a LIKE 'x!y' ESCAPE '!'", code: .invalidPattern, column: 8, says: "'!y'"),
        Case(input: "a LIKE 'x' ESCAPE 'ab'", code: .invalidPattern, column: 19, says: "one character"),
        Case(input: "a", code: .notACondition, column: 1, says: "found a value"),
        Case(input: "NOT a", code: .notACondition, column: 5, says: "NOT applies to a condition"),
        Case(input: "a AND b = 1", code: .notACondition, column: 1, says: "AND joins conditions"),
        Case(input: "a + (b = 1) > 2", code: .notACondition, column: 6, says: "found a condition"),
        Case(input: "a = 1e999", code: .invalidNumber, column: 5, says: "too large"),
        Case(input: "a = 12abc", code: .invalidNumber, column: 5, says: "malformed number '12a'"),
        Case(input: "a = 1.2.3", code: .invalidNumber, column: 5, says: "malformed number"),
        Case(input: "d = DATE '2021-02-29'", code: .invalidDate, column: 10, says: "not a valid date"),
        Case(input: "d = DATE 2021", code: .syntaxError, column: 10, says: "DATE 'yyyy-mm-dd'"),
        Case(input: "t = TIMESTAMP '2020-01-01 25:00:00'", code: .invalidDate, column: 15, says: "not a valid timestamp"),
        Case(input: "t = TIMESTAMP '2020-01-01 10:00:00+02:00'", code: .invalidDate, column: 15, says: "timestamp"),
        Case(input: "a # 1", code: .unexpectedCharacter, column: 3, says: "unexpected character '#'"),
        Case(input: "a = [b]", code: .unexpectedCharacter, column: 5, says: "'['"),
        Case(input: "a\u{A0}= 1", code: .unexpectedCharacter, column: 2, says: "U+00A0"),
        Case(input: "née = 'x' AND x ~ 1", code: .unexpectedCharacter, column: 17, says: "at column 17"),
        Case(input: "", code: .emptyClause, column: nil, says: "empty"),
        Case(input: "  \n ", code: .emptyClause, column: nil, says: "empty"),
        Case(input: "ROUND(a, 1.5) > 1", code: .invalidArgument, column: 10, says: "whole number from -18 to 18"),
        Case(input: "UPPER(a, b) = 'x'", code: .invalidArgument, column: 8, says: "UPPER takes one argument"),
        Case(input: "SUBSTRING(a) = 'x'", code: .invalidArgument, column: 12, says: "SUBSTRING(x FROM 1 FOR 3)"),
        Case(input: "CAST(a AS BLOB) = 1", code: .invalidArgument, column: 11, says: "expected a type"),
        Case(input: "TRIM(LEADING 'ab' FROM n) = 'x'", code: .invalidArgument, column: 14, says: "one character"),
    ]

    @Test("Each malformed or unsafe clause gives its error", arguments: cases)
    func rejects(_ example: Case) {
        let error = #expect(throws: QueryLanguageError.self) { try WhereClause(example.input) }
        #expect(error?.code == example.code)
        #expect(error?.column == example.column)
        #expect(error?.message.contains(example.says) == true, "message: \(error?.message ?? "none")")
    }

    @Test("CQL2 text has its own refusals")
    func cql2Refusals() {
        let boolean = #expect(throws: QueryLanguageError.self) { try WhereClause(cql2Text: "swimming_pool = true") }
        #expect(boolean?.code == .syntaxError)
        let spatial = #expect(throws: QueryLanguageError.self) {
            try WhereClause(cql2Text: "S_INTERSECTS(geometry, POINT(36.3 32.2))")
        }
        #expect(spatial?.code == .unknownFunction)
        let sqlOnly = #expect(throws: QueryLanguageError.self) { try WhereClause(cql2Text: "UPPER(a) = 'X'") }
        #expect(sqlOnly?.code == .unknownFunction)
        let escape = #expect(throws: QueryLanguageError.self) { try WhereClause(cql2Text: #"a LIKE 'x\'"#) }
        #expect(escape?.code == .unterminatedString)
    }
}
