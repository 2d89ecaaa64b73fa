import QueryLanguage
import Testing

/// What CQL2 filters are refused, with which code, and where the message points.
@Suite("CQL2 filter errors")
struct CQL2FilterErrorTests {
    static let textErrors: [(text: String, code: QueryLanguageError.Code, column: Int?, fragment: String)] = [
        ("count = FOO(1)", .unknownFunction, 9, "unknown function 'FOO' at column 9"),
        ("count = 1 FOO", .syntaxError, 11, "unexpected 'FOO' at column 11"),
        ("S_INTERSECTS(geometry, BBOX(1, 2, 3)) AND a = 1", .invalidArgument, 24, "takes 4 numbers"),
        ("a = 1 OR S_INTERSECTS(geometry, BBOX(0, 0, 1, 1))", .spatialPredicatePlacement, 10,
            "the spatial predicate at column 10 is inside OR, NOT or a comparison; spatial predicates may only be "
                + "joined to the rest of the filter with AND at its top level"),
        ("NOT S_WITHIN(geometry, POINT(0 0))", .spatialPredicatePlacement, 5, "OR, NOT"),
        ("S_INTERSECTS(a, b)", .invalidArgument, 1, "compares a geometry property with a geometry literal"),
        ("S_INTERSECTS(geometry, POINT(1))", .syntaxError, 31, "expected a coordinate at column 31"),
        ("S_INTERSECTS(geometry, POLYGON((0 0, 1 1))", .syntaxError, 43, "expected ')'"),
        ("name = 'open", .unterminatedString, 8, "unterminated string"),
        ("name = NULL", .nullComparison, 8, "IS NULL"),
        (#"name LIKE 'a\'"#, .unterminatedString, 11, "unterminated"),
        ("", .emptyClause, nil, "empty"),
        ("a = 1; DROP TABLE x", .forbiddenConstruct, 6, "';' is not allowed"),
        ("S_INTERSECTS(geometry, BBOX(0,0,1,1)) = 1", .notACondition, 1, "expected a value at column 1"),
    ]

    @Test("Text errors carry a code, a column and an actionable message", arguments: textErrors)
    func textError(text: String, code: QueryLanguageError.Code, column: Int?, fragment: String) {
        let error = #expect(throws: QueryLanguageError.self) { try CQL2Filter(text: text) }
        #expect(error?.code == code, "\(text): \(error?.message ?? "")")
        #expect(error?.column == column, "\(text): \(error?.message ?? "")")
        #expect(error?.message.contains(fragment) == true, "\(text): \(error?.message ?? "")")
    }

    static let jsonErrors: [(json: String, code: QueryLanguageError.Code, fragment: String)] = [
        (#"{"op":"=","args":[{"property":"a"}"#, .invalidJSON, "can't be read"),
        (#"{"op":"foo","args":[]}"#, .unknownFunction, "filter.op 'foo' is not an operator"),
        (#"{"op":"=","args":[{"property":"a"}]}"#, .invalidArgument, "filter.args has 1 arguments; '=' takes 2"),
        (#"{"op":"=","args":[{"property":"a"},null]}"#, .nullComparison, "filter.args[1] is null"),
        (#"{"op":"or","args":[{"op":"=","args":[{"property":"a"},1]},{"op":"s_intersects","args":[{"property":"g"},{"bbox":[0,0,1,1]}]}]}"#,
            .spatialPredicatePlacement, "the spatial predicate at filter.args[1] is inside OR, NOT"),
        (#"{"op":"s_intersects","args":[{"property":"g"},{"type":"Circle","coordinates":[0,0]}]}"#,
            .invalidArgument, "'Circle' is not a GeoJSON geometry type"),
        (#"{"op":"s_intersects","args":[{"property":"g"},{"type":"Point","coordinates":[0]}]}"#,
            .invalidArgument, "filter.args[1].coordinates is a position of 1 numbers"),
        (#"{"op":"=","args":[{"property":"d"},{"date":"2020-02-30"}]}"#, .invalidDate, "not a valid date"),
        (#"{"op":"casei","args":[{"property":"a"}]}"#, .notACondition, "not a condition"),
        (#"{"op":"=","args":[{"op":"<","args":[1,2]},1]}"#, .notACondition, "filter.args[0] is a condition"),
        (#"{"op":"in","args":[{"property":"a"},[]]}"#, .syntaxError, "empty list"),
        (#"{"op":"like","args":[{"property":"a"},5]}"#, .invalidPattern, "must be a pattern string"),
        (#""a = 1""#, .notACondition, "not a condition"),
    ]

    @Test("JSON errors name the place in the document", arguments: jsonErrors)
    func jsonError(json: String, code: QueryLanguageError.Code, fragment: String) {
        let error = #expect(throws: QueryLanguageError.self) { try CQL2Filter(json: json) }
        #expect(error?.code == code, "\(json): \(error?.message ?? "")")
        #expect(error?.message.contains(fragment) == true, "\(json): \(error?.message ?? "")")
    }

    @Test("Hostile sizes and depths are refused, not followed")
    func limits() {
        let long = "a = '" + String(repeating: "x", count: 70 * 1024) + "'"
        #expect((#expect(throws: QueryLanguageError.self) { try CQL2Filter(text: long) })?.code == .clauseTooLong)
        let deepText = String(repeating: "(", count: 5_000) + "a = 1" + String(repeating: ")", count: 5_000)
        #expect((#expect(throws: QueryLanguageError.self) { try CQL2Filter(text: deepText) })?.code == .nestingTooDeep)
        let deepGeometry = "S_INTERSECTS(g, " + String(repeating: "GEOMETRYCOLLECTION(", count: 300) + "POINT(0 0)"
            + String(repeating: ")", count: 301)
        #expect((#expect(throws: QueryLanguageError.self) { try CQL2Filter(text: deepGeometry) })?.code == .nestingTooDeep)
        var deepJSON = #"{"op":"=","args":[{"property":"a"},1]}"#
        for _ in 0..<300 { deepJSON = #"{"op":"not","args":["# + deepJSON + "]}" }
        #expect((#expect(throws: QueryLanguageError.self) { try CQL2Filter(json: deepJSON) })?.code == .nestingTooDeep)
        let shallow = ClauseLimits(maxDepth: 3)
        #expect((#expect(throws: QueryLanguageError.self) {
            try CQL2Filter(json: #"{"op":"not","args":[{"op":"not","args":[{"op":"=","args":[{"property":"a"},1]}]}]}"#,
                limits: shallow)
        })?.code == .nestingTooDeep)
    }

    @Test("WhereClause(cql2Text:) still refuses what only CQL2Filter reads")
    func whereClauseUnchanged() {
        #expect((#expect(throws: QueryLanguageError.self) {
            try WhereClause(cql2Text: "S_INTERSECTS(g, BBOX(0, 0, 1, 1))")
        })?.code == .unknownFunction)
        #expect((#expect(throws: QueryLanguageError.self) { try WhereClause(cql2Text: "flag = TRUE") })?.code == .syntaxError)
    }
}
