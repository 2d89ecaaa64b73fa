import Testing

@testable import QueryWorker
import WorkerTestSupport
@testable import RequestContract

/// Contract 1.2's feature-table members, malformed one way each: every validation error of `objectIds`,
/// `time`, `orderBy`, `statistics`, `groupBy` and distinct's `outFields`, with its code, message and path, and
/// whether the schema refuses it too.
extension RejectionCase {
    static func table(_ name: String, _ query: String, _ code: ContractError.Code, _ path: String, _ message: String,
                      schemaRejects: Bool = true) -> RejectionCase {
        RejectionCase(
            name: name, value: request(query: query), code: code, message: "\(path): \(message)", path: path,
            schemaRejects: schemaRejects)
    }

    static let count = #"{"type":"count","field":"A"}"#
    static let tooManyIds = "[" + (1...100_001).map(String.init).joined(separator: ",") + "]"
    static let nineTerms = "[" + (1...9).map { #"{"field":"F\#($0)"}"# }.joined(separator: ",") + "]"
    static let nineFields = "[" + (1...9).map { #""F\#($0)""# }.joined(separator: ",") + "]"
    static let manyStatistics = "[" + (1...33).map { #"{"type":"sum","field":"A","name":"s\#($0)"}"# }.joined(separator: ",") + "]"

    static let tableCases: [RejectionCase] = [
        table("empty objectIds", #"{"objectIds":[]}"#, .invalidValue, "query.objectIds",
              "is empty; omit objectIds to select by the other filters alone"),
        table("too many objectIds", #"{"objectIds":\#(tooManyIds)}"#, .invalidValue, "query.objectIds",
              "lists 100001 ids; at most 100000 (send several requests)"),
        table("a repeated object id", #"{"objectIds":[1,2,1]}"#, .invalidValue, "query.objectIds[2]",
              "repeats the id 1; name each id once", schemaRejects: false),
        table("a fractional object id", #"{"objectIds":[1.5]}"#, .invalidType, "query.objectIds[0]",
              "expected an integer, found the number 1.5"),
        table("an empty feature id", #"{"objectIds":[""]}"#, .invalidValue, "query.objectIds[0]",
              "a feature id has 1 to 256 characters"),
        table("a time without bounds", #"{"time":{"start":null,"end":null}}"#, .invalidValue, "query.time",
              "has no start and no end; give at least one bound, or omit time for any time"),
        table("a time starting after its end", #"{"time":{"start":"2025-06-02T00:00:00Z","end":"2025-06-01T00:00:00Z"}}"#,
              .invalidValue, "query.time.start",
              "2025-06-02T00:00:00.000Z is after the end 2025-06-01T00:00:00.000Z; give the earlier instant as start "
                + "(equal bounds are an instant)", schemaRejects: false),
        table("a time without a zone", #"{"time":{"start":"2025-06-01T00:00:00"}}"#, .invalidValue, "query.time.start",
              #""2025-06-01T00:00:00" is not an RFC 3339 date-time with a time zone, such as 2025-06-01T12:00:00Z (null for an open end)"#),
        table("a time bound that is a number", #"{"time":{"end":5}}"#, .invalidType, "query.time.end",
              "expected an RFC 3339 date-time or null, found the number 5"),
        table("a time that is a string", #"{"time":"2025"}"#, .invalidType, "query.time", "expected an object, found the string \"2025\""),
        RejectionCase(
            name: "an unknown member of time", value: request(query: #"{"time":{"ends":null}}"#), code: .unknownField,
            message: #"query.time.ends: unknown field (did you mean "end"?); the fields of query.time are start, end"#,
            path: "query.time.ends"),
        table("an empty orderBy", #"{"orderBy":[]}"#, .invalidValue, "query.orderBy", "is empty; omit orderBy for the service's order"),
        table("nine orderBy entries", #"{"orderBy":\#(nineTerms)}"#, .invalidValue, "query.orderBy", "has 9 entries; at most 8"),
        table("an orderBy field twice", #"{"orderBy":[{"field":"A"},{"field":"A","direction":"desc"}]}"#, .invalidValue,
              "query.orderBy[1].field", "orders by A again (query.orderBy[0] already does)", schemaRejects: false),
        table("an unknown direction", #"{"orderBy":[{"field":"A","direction":"descending"}]}"#, .invalidValue,
              "query.orderBy[0].direction", #""descending" is not one of "asc", "desc""#),
        table("an orderBy entry without field", #"{"orderBy":[{"direction":"asc"}]}"#, .missingField,
              "query.orderBy[0].field", "required field missing from query.orderBy[0]"),
        table("orderBy with a count", #"{"result":"count","orderBy":[{"field":"A"}]}"#, .invalidValue, "query.orderBy",
              "a result: count has no order; orderBy orders ids, features and statistics rows"),
        table("statistics ordered by a feature field", #"{"result":"statistics","statistics":[\#(count)],"orderBy":[{"field":"B"}]}"#,
              .invalidValue, "query.orderBy[0].field",
              "statistics rows are ordered by a groupBy field or a statistic's name (count_A), not by B", schemaRejects: false),
        table("statistics with result ids", #"{"statistics":[\#(count)]}"#, .invalidValue, "query.statistics",
              "belongs to result: statistics, and this query's result is ids; drop statistics or ask for statistics"),
        table("groupBy with result count", #"{"result":"count","groupBy":["A"]}"#, .invalidValue, "query.groupBy",
              "belongs to result: statistics, and this query's result is count; drop groupBy or ask for statistics"),
        table("result statistics without statistics", #"{"result":"statistics"}"#, .missingField, "query.statistics",
              "required field missing from query"),
        table("empty statistics", #"{"result":"statistics","statistics":[]}"#, .invalidValue, "query.statistics",
              "is empty; name at least one statistic"),
        table("33 statistics", #"{"result":"statistics","statistics":\#(manyStatistics)}"#, .invalidValue, "query.statistics",
              "has 33 entries; at most 32"),
        table("an unknown statistic type", #"{"result":"statistics","statistics":[{"type":"median","field":"A"}]}"#,
              .invalidValue, "query.statistics[0].type",
              #""median" is not one of "count", "sum", "min", "max", "avg", "stddev", "var", "percentileCont", "percentileDisc""#),
        table("a statistic without type", #"{"result":"statistics","statistics":[{"field":"A"}]}"#, .missingField,
              "query.statistics[0].type", "required field missing from query.statistics[0]"),
        table("a statistic without field", #"{"result":"statistics","statistics":[{"type":"sum"}]}"#, .missingField,
              "query.statistics[0].field", "required field missing from query.statistics[0]"),
        table("a percentile without p", #"{"result":"statistics","statistics":[{"type":"percentileCont","field":"A"}]}"#,
              .missingField, "query.statistics[0].percentile", "percentileCont needs a percentile, 0 < p < 1"),
        table("a percentile of 1", #"{"result":"statistics","statistics":[{"type":"percentileDisc","field":"A","percentile":1}]}"#,
              .invalidValue, "query.statistics[0].percentile", "1 is not between 0 and 1 (exclusive); the median is 0.5"),
        table("a percentile with sum", #"{"result":"statistics","statistics":[{"type":"sum","field":"A","percentile":0.5}]}"#,
              .invalidValue, "query.statistics[0].percentile", "only percentileCont and percentileDisc take a percentile, not sum"),
        table("a statistic name with a space", #"{"result":"statistics","statistics":[{"type":"avg","field":"A","name":"avg price"}]}"#,
              .invalidValue, "query.statistics[0].name",
              #""avg price" is not a statistic name (letters, digits and _, as ArcGIS's outStatisticFieldName)"#),
        table("two statistics of one default name",
              #"{"result":"statistics","statistics":[{"type":"sum","field":"A"},{"type":"sum","field":"A"}]}"#,
              .invalidValue, "query.statistics[1].name",
              "the name sum_A is taken by query.statistics[0]; give each statistic its own name", schemaRejects: false),
        table("a statistic named as a group field",
              #"{"result":"statistics","groupBy":["A"],"statistics":[{"type":"count","field":"B","name":"A"}]}"#,
              .invalidValue, "query.statistics[0].name",
              "A is a groupBy field; a statistic needs another name, so orderBy can tell them apart", schemaRejects: false),
        RejectionCase(
            name: "a misspelt percentile",
            value: request(query: #"{"result":"statistics","statistics":[{"type":"sum","field":"A","percentil":0.5}]}"#),
            code: .unknownField,
            message: #"query.statistics[0].percentil: unknown field (did you mean "percentile"?); the fields of "#
                + "query.statistics[0] are type, field, name, percentile",
            path: "query.statistics[0].percentil"),
        table("nine groupBy fields", #"{"result":"statistics","groupBy":\#(nineFields),"statistics":[\#(count)]}"#,
              .invalidValue, "query.groupBy", "lists 9 fields; at most 8"),
        table("a groupBy field twice", #"{"result":"statistics","groupBy":["A","A"],"statistics":[\#(count)]}"#,
              .invalidValue, "query.groupBy[1]", "repeats query.groupBy[0]"),
        table("a groupBy number", #"{"result":"statistics","groupBy":[1],"statistics":[\#(count)]}"#, .invalidType,
              "query.groupBy[0]", "expected a field name, found the number 1"),
        table("distinct without outFields", #"{"result":"distinct"}"#, .missingField, "query.outFields",
              "result: distinct lists the distinct combinations of outFields; name the fields"),
        table("distinct of every field", #"{"result":"distinct","outFields":["A","*"]}"#, .invalidValue, "query.outFields[1]",
              "result: distinct needs named fields, not *: every feature would be its own combination"),
        table("a catalog with objectIds", #"{"result":"catalog","objectIds":[1]}"#, .invalidValue, "query.objectIds",
              "a result: catalog request lists each target's collections or layers and selects no features, so it takes "
                + "no objectIds; drop it, or ask for ids, count, features, statistics, extent, distinct, related or attachments"),
    ]
}

@Suite struct ContractTableRejectionTests {
    @Test(arguments: RejectionCase.tableCases)
    func rejection(_ example: RejectionCase) throws {
        try ContractRejectionTests().rejection(example)
    }

    @Test(.enabled(if: ContractSupport.schemaTestsEnabled, "Python with jsonschema is missing (scripts/setup-deps installs it)"))
    func theSchemaRejectsWhatItCanExpress() async throws {
        let cases = RejectionCase.tableCases
        let verdicts = try await ContractSupport.validate(cases.map { ($0.schema, $0.value ?? []) })
        for (example, verdict) in zip(cases, verdicts) {
            #expect(verdict.valid != example.schemaRejects, "\(example.name): schema valid = \(verdict.valid) \(verdict.errors)")
        }
    }
}
