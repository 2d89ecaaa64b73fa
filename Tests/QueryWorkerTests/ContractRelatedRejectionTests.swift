import QueryLanguage
import Testing

@testable import QueryWorker
import WorkerTestSupport
@testable import RequestContract

/// `result: related` and `attachments` (contract 1.2), malformed one way each: every validation error of
/// `relationship`, `relatedWhere`, `relatedOutFields` and `relatedOrderBy`, and the members of other results
/// sent with them, with its code, message and path, and whether the schema refuses it too.
extension RejectionCase {
    static let relationship = #""relationship":{"name":"Inspections"}"#
    static let longName = String(repeating: "r", count: 129)

    static func belongsToRelated(_ member: String, _ query: String, result: String) -> RejectionCase {
        table("\(member) with result \(result)", query, .invalidValue, "query.\(member)",
              "belongs to result: related, and this query's result is \(result); drop \(member) or ask for related")
    }

    static let relatedCases: [RejectionCase] = [
        belongsToRelated("relationship", #"{"relationship":{"name":"Inspections"}}"#, result: "ids"),
        belongsToRelated("relatedWhere", #"{"result":"features","relatedWhere":"A = 1"}"#, result: "features"),
        belongsToRelated("relatedOutFields", #"{"result":"attachments","relatedOutFields":["A"]}"#, result: "attachments"),
        belongsToRelated("relatedOrderBy", #"{"result":"count","relatedOrderBy":[{"field":"A"}]}"#, result: "count"),
        table("related without relationship", #"{"result":"related","relatedWhere":"A = 1"}"#, .missingField,
              "query.relationship", "required field missing from query"),
        table("a relationship with neither name nor id", #"{"result":"related","relationship":{}}"#, .missingField,
              "query.relationship",
              #"names no relationship; give {"name": N} or {"id": I} as the layer's relationships list them (result: catalog shows them)"#),
        table("a relationship with name and id", #"{"result":"related","relationship":{"name":"Inspections","id":2}}"#,
              .invalidValue, "query.relationship.id",
              "give the relationship's name or its id, not both (a name is safer: ids differ between deployments)"),
        table("an empty relationship name", #"{"result":"related","relationship":{"name":""}}"#, .invalidValue,
              "query.relationship.name", "is empty; expected 1 to 128 characters"),
        table("a relationship name too long", #"{"result":"related","relationship":{"name":"\#(longName)"}}"#, .invalidValue,
              "query.relationship.name", "has 129 characters; expected 1 to 128 characters"),
        table("a negative relationship id", #"{"result":"related","relationship":{"id":-1}}"#, .invalidValue,
              "query.relationship.id", "the number -1 is out of range; expected 0 to 2147483647"),
        table("a fractional relationship id", #"{"result":"related","relationship":{"id":1.5}}"#, .invalidType,
              "query.relationship.id", "expected an integer, found the number 1.5"),
        table("a relationship that is a string", #"{"result":"related","relationship":"Inspections"}"#, .invalidType,
              "query.relationship", #"expected an object, found the string "Inspections""#),
        RejectionCase(
            name: "an unknown member of relationship", value: request(query: #"{"result":"related","relationship":{"nam":"R"}}"#),
            code: .unknownField,
            message: #"query.relationship.nam: unknown field (did you mean "name"?); the fields of query.relationship are name, id"#,
            path: "query.relationship.nam"),
        table("an invalid relatedWhere", #"{"result":"related",\#(relationship),"relatedWhere":"Result ="}"#, .invalidWhere,
              "query.relatedWhere", clauseMessage("Result ="), schemaRejects: false),
        table("an empty relatedWhere", #"{"result":"related",\#(relationship),"relatedWhere":""}"#, .invalidValue,
              "query.relatedWhere", "is empty; expected at least 1 characters"),
        table("empty relatedOutFields", #"{"result":"related",\#(relationship),"relatedOutFields":[]}"#, .invalidValue,
              "query.relatedOutFields", #"is empty; omit relatedOutFields for all fields (["*"])"#),
        table("a repeated relatedOutFields field", #"{"result":"related",\#(relationship),"relatedOutFields":["A","A"]}"#,
              .invalidValue, "query.relatedOutFields[1]", "repeats query.relatedOutFields[0]"),
        table("an empty relatedOrderBy", #"{"result":"related",\#(relationship),"relatedOrderBy":[]}"#, .invalidValue,
              "query.relatedOrderBy", "is empty; omit relatedOrderBy for the related table's object id order"),
        table("nine relatedOrderBy entries", #"{"result":"related",\#(relationship),"relatedOrderBy":\#(nineTerms)}"#,
              .invalidValue, "query.relatedOrderBy", "has 9 entries; at most 8"),
        table("a relatedOrderBy field twice",
              #"{"result":"related",\#(relationship),"relatedOrderBy":[{"field":"A"},{"field":"A","direction":"desc"}]}"#,
              .invalidValue, "query.relatedOrderBy[1].field", "orders by A again (query.relatedOrderBy[0] already does)",
              schemaRejects: false),
        table("orderBy with related", #"{"result":"related",\#(relationship),"orderBy":[{"field":"A"}]}"#, .invalidValue,
              "query.orderBy",
              "a result: related has no order; orderBy orders ids, features and statistics rows (relatedOrderBy orders each "
                + "feature's related records)"),
        table("orderBy with attachments", #"{"result":"attachments","orderBy":[{"field":"A"}]}"#, .invalidValue,
              "query.orderBy", "a result: attachments has no order; orderBy orders ids, features and statistics rows"),
        table("statistics with attachments", #"{"result":"attachments","statistics":[\#(count)]}"#, .invalidValue,
              "query.statistics",
              "belongs to result: statistics, and this query's result is attachments; drop statistics or ask for statistics"),
        table("groupBy with related", #"{"result":"related",\#(relationship),"groupBy":["A"]}"#, .invalidValue,
              "query.groupBy", "belongs to result: statistics, and this query's result is related; drop groupBy or ask for statistics"),
        table("a catalog with a relationship", #"{"result":"catalog",\#(relationship)}"#, .invalidValue, "query.relationship",
              "a result: catalog request lists each target's collections or layers and selects no features, so it takes "
                + "no relationship; drop it, or ask for ids, count, features, statistics, extent, distinct, related or attachments"),
        table("related records in a projected spatial reference",
              #"{"result":"related",\#(relationship),"returnGeometry":true,"outSpatialReference":{"wkid":2229}}"#,
              .unsupportedSpatialReference, "query.outSpatialReference",
              "wkid 2229 cannot be returned: related records' geometries are GeoJSON in WGS 84, so only 4326 or Web Mercator "
                + "(3857, 102100) can be asked for; omit outSpatialReference to get WGS 84", schemaRejects: false),
        RejectionCase(
            name: "relatedWhere when only named queries are allowed",
            value: request(query: #"{"result":"related",\#(relationship),"relatedWhere":"Result = 'Fail'"}"#),
            allowFreeClauses: false, code: .freeClausesDisabled,
            message: "query.relatedWhere: " + catalogMessage(.free("Result = 'Fail'"), allowFree: false), path: "query.relatedWhere",
            schemaRejects: false),
    ]
}

@Suite struct ContractRelatedRejectionTests {
    @Test(arguments: RejectionCase.relatedCases)
    func rejection(_ example: RejectionCase) throws {
        try ContractRejectionTests().rejection(example)
    }

    @Test(.enabled(if: ContractSupport.schemaTestsEnabled, "Python with jsonschema is missing (scripts/setup-deps installs it)"))
    func theSchemaRejectsWhatItCanExpress() async throws {
        let cases = RejectionCase.relatedCases
        let verdicts = try await ContractSupport.validate(cases.map { ($0.schema, $0.value ?? []) })
        for (example, verdict) in zip(cases, verdicts) {
            #expect(verdict.valid != example.schemaRejects, "\(example.name): schema valid = \(verdict.valid) \(verdict.errors)")
        }
    }
}
