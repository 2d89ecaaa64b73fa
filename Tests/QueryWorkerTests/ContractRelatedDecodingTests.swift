import FeatureGeometry
import FeatureService
import QueryLanguage
import Testing

@testable import QueryWorker
import WorkerTestSupport
@testable import RequestContract

/// `result: related` and `attachments` (contract 1.2) as the decoder reads them: the examples, the defaults,
/// what the feature-service seam receives; and requests that differ in a related member never share a run.
@Suite struct ContractRelatedDecodingTests {
    static func decode(_ query: String) throws -> QueryRequest {
        try ContractTableDecodingTests.decode(query)
    }

    @Test func theRelatedExample() throws {
        let query = try ContractExampleTests.query("request-related.json").serviceQuery
        #expect(query.result == .related)
        #expect(query.maxFeatures == 500)
        #expect(query.whereClause != nil && query.geometry != nil)
        let related = try #require(query.related)
        #expect(related.relationship == .name("Hydrant_Inspections"))
        #expect(related.whereClause?.meansSame(as: try WhereClause("Result <> 'Pass'")) == true)
        #expect(related.outFields == ["InspectedOn", "Result", "Inspector"])
        #expect(related.orderBy == [OrderTerm(field: "InspectedOn", descending: true)])
        #expect(query.orderBy.isEmpty && query.statistics.isEmpty)
    }

    @Test func theAttachmentsExample() throws {
        let query = try ContractExampleTests.query("request-attachments.json").serviceQuery
        #expect(query.result == .attachments)
        #expect(query.objectIds == [.integer(12), .integer(31)])
        #expect(query.related == nil)
    }

    /// Only `relationship` is needed: every related record, every field, the related table's order.
    @Test func relatedDefaults() throws {
        let query = try Self.decode(#"{"result":"related","relationship":{"id":0},"returnGeometry":true}"#).serviceQuery
        #expect(query.related == RelatedQuery(relationship: .id(0)))
        #expect(query.related?.outFields == ["*"] && query.related?.whereClause == nil)
        #expect(query.returnGeometry)
        #expect(query.outSpatialReference == .wgs84, "related records' geometries are GeoJSON")
        #expect(try Self.decode(#"{"result":"attachments"}"#).serviceQuery.outSpatialReference == nil)
    }

    /// Other results carry no related query, and the selection members go with related and attachments.
    @Test func selectionMembersGoWithBoth() throws {
        for result in ["related", "attachments"] {
            let relationship = result == "related" ? #","relationship":{"name":"R"}"# : ""
            let query = try Self.decode(
                #"{"result":"\#(result)"\#(relationship),"where":"A = 1","objectIds":[1],"time":{"start":"2025-01-01T00:00:00Z"},"#
                    + #""geometry":{"type":"Point","coordinates":[1,2]}}"#
            ).serviceQuery
            #expect(query.whereClause != nil && query.objectIds == [.integer(1)] && query.time != nil && query.geometry != nil)
        }
        #expect(try Self.decode(#"{"result":"features"}"#).serviceQuery.related == nil)
    }

    /// The run-sharing fingerprint covers every related member: two requests that differ only in one never
    /// share a run (each would get the other's records).
    @Test(arguments: [
        (#"{"result":"related","relationship":{"name":"A"}}"#, #"{"result":"related","relationship":{"name":"B"}}"#),
        (#"{"result":"related","relationship":{"id":1}}"#, #"{"result":"related","relationship":{"id":2}}"#),
        (#"{"result":"related","relationship":{"name":"1"}}"#, #"{"result":"related","relationship":{"id":1}}"#),
        (#"{"result":"related","relationship":{"id":1}}"#, #"{"result":"related","relationship":{"id":1},"relatedWhere":"A = 1"}"#),
        (#"{"result":"related","relationship":{"id":1},"relatedWhere":"A = 1"}"#,
         #"{"result":"related","relationship":{"id":1},"relatedWhere":"A = 2"}"#),
        (#"{"result":"related","relationship":{"id":1}}"#, #"{"result":"related","relationship":{"id":1},"relatedOutFields":["A"]}"#),
        (#"{"result":"related","relationship":{"id":1},"relatedOutFields":["A"]}"#,
         #"{"result":"related","relationship":{"id":1},"relatedOutFields":["A","B"]}"#),
        (#"{"result":"related","relationship":{"id":1}}"#,
         #"{"result":"related","relationship":{"id":1},"relatedOrderBy":[{"field":"A"}]}"#),
        (#"{"result":"related","relationship":{"id":1},"relatedOrderBy":[{"field":"A"}]}"#,
         #"{"result":"related","relationship":{"id":1},"relatedOrderBy":[{"field":"A","direction":"desc"}]}"#),
        (#"{"result":"related","relationship":{"id":1}}"#, #"{"result":"related","relationship":{"id":1},"returnGeometry":true}"#),
        (#"{"result":"attachments"}"#, #"{"result":"ids"}"#),
        (#"{"result":"attachments"}"#, #"{"result":"related","relationship":{"id":1}}"#),
    ])
    func requestsDifferingInARelatedMemberDoNotShare(_ pair: (String, String)) throws {
        let first = try Self.decode(pair.0)
        let second = try Self.decode(pair.1)
        #expect(!first.asksSame(as: second))
        #expect(first.serviceQuery != second.serviceQuery)
        #expect(first.asksSame(as: try Self.decode(pair.0)), "the same request shares")
    }

    /// `relatedWhere` compares by meaning, as `where` does: spellings of one clause share a run.
    @Test func relatedWhereSpellingsShare() throws {
        let first = try Self.decode(#"{"result":"related","relationship":{"id":1},"relatedWhere":"result = 'Fail' AND n > 1"}"#)
        let second = try Self.decode(#"{"result":"related","relationship":{"id":1},"relatedWhere":"RESULT = 'Fail' AND N > 1.0"}"#)
        #expect(first.asksSame(as: second))
    }
}
