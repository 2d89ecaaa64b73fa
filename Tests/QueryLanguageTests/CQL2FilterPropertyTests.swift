import PropertyBased
import QueryLanguage
import Testing

/// What the worker renders as CQL2, a CQL2 server reading it with ``CQL2Filter`` evaluates alike.
@Suite("CQL2 filter properties")
struct CQL2FilterPropertyTests {
    static let context = EvaluationContext(currentTimeMilliseconds: 1_700_000_000_123)

    static func disagreements(
        _ original: WhereClause, _ read: WhereClause?, _ records: [[AttributeValue]]
    ) throws -> [[AttributeValue]] {
        let expected = try original.compile(fieldNames: RandomTrees.typedFields, context: context)
        let actual = try #require(read).compile(fieldNames: RandomTrees.typedFields, context: context)
        return records.filter { expected.evaluate($0) != actual.evaluate($0) }
    }

    @Test("render as CQL2 text, read with CQL2Filter: same truth on random records")
    func textRoundTrip() async {
        await propertyCheck(count: 300, input: RandomTrees.typedConditions, RandomTrees.typedRecords) { expression, records in
            let clause = try WhereClause(expression: expression)
            let text = try clause.cql2Text()
            let filter = try CQL2Filter(text: text)
            #expect(filter.spatialPredicates.isEmpty)
            let wrong = try Self.disagreements(clause, filter.attributes, records)
            #expect(wrong.isEmpty, "\(clause.arcGISSQL) vs \(text): \(wrong.prefix(3))")
        }
    }

    @Test("render as CQL2-JSON, read with CQL2Filter: same truth on random records")
    func jsonRoundTrip() async {
        await propertyCheck(count: 300, input: RandomTrees.typedConditions, RandomTrees.typedRecords) { expression, records in
            let clause = try WhereClause(expression: expression)
            let json = try clause.cql2JSON()
            let filter = try CQL2Filter(json: json)
            let wrong = try Self.disagreements(clause, filter.attributes, records)
            #expect(wrong.isEmpty, "\(clause.arcGISSQL) vs \(json): \(wrong.prefix(3))")
        }
    }

    @Test("A spatial predicate ANDed to any condition comes out whole and leaves the condition's meaning")
    func spatialSplit() async {
        await propertyCheck(count: 200, input: RandomTrees.typedConditions, RandomTrees.typedRecords) { expression, records in
            let clause = try WhereClause(expression: expression)
            let text = "S_INTERSECTS(geometry, BBOX(-1, -2, 3, 4.5)) AND (\(try clause.cql2Text()))"
            let filter = try CQL2Filter(text: text)
            #expect(filter.spatialPredicates == [
                CQL2SpatialPredicate(relation: .intersects, property: "geometry", geometry: .bbox([-1, -2, 3, 4.5]))
            ])
            let wrong = try Self.disagreements(clause, filter.attributes, records)
            #expect(wrong.isEmpty, "\(text): \(wrong.prefix(3))")
        }
    }

    static let tokens = [
        "S_INTERSECTS(", "BBOX(", "POINT(", "POLYGON((", "geometry", "a", "'x'", "1", "-2.5", " ", ",", "(", ")", " AND ",
        " OR ", " NOT ", "=", "<", " LIKE ", " IN ", "TRUE", "CASEI(", "DATE('2020-01-01')", "\\", "'", "\"",
    ]

    @Test("Any token soup gives a filter or a typed error, never a crash")
    func arbitraryText() async {
        await propertyCheck(count: 2_000, input: Gen.element(of: Self.tokens).array(of: 0...24)) { pieces in
            let text = pieces.compactMap { $0 }.joined()
            guard let filter = try? CQL2Filter(text: text) else { return }
            #expect(filter.conformanceClasses.contains(CQL2Conformance.basic))
        }
    }

    static let jsonTokens = [
        "{", "}", "[", "]", ",", ":", #""op""#, #""args""#, #""and""#, #""not""#, #""=""#, #""like""#, #""in""#,
        #""s_intersects""#, #""property""#, #""bbox""#, #""type""#, #""Point""#, #""coordinates""#, #""date""#,
        #""2020-01-01""#, #""casei""#, "1", "-2.5", "true", "null", #""a""#, #""%""#,
    ]

    @Test("Any JSON token soup gives a filter or a typed error, never a crash")
    func arbitraryJSON() async {
        await propertyCheck(count: 2_000, input: Gen.element(of: Self.jsonTokens).array(of: 0...32)) { pieces in
            let json = pieces.compactMap { $0 }.joined()
            do {
                let filter = try CQL2Filter(json: json)
                #expect(filter.conformanceClasses.contains(CQL2Conformance.json))
            } catch let error as QueryLanguageError {
                #expect(!error.message.isEmpty)
            }
        }
    }
}
