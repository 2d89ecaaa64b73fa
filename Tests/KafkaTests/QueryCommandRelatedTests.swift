import ChildProcessFixture
import Foundation
import Testing

/// `query-worker query`'s related-records and attachments flags (contract 1.2), turned into the request a
/// producer would send: `--dry-run` prints the request the worker's decoder accepted, so no broker is needed.
@Suite struct QueryCommandRelatedTests {
    @Test func relatedFlagsMakeTheRelatedMembers() async throws {
        let query = try await QueryCommandTableTests.query([
            "--result", "related", "--relationship", "Hydrant_Inspections", "--related-where", "Result <> 'Pass'",
            "--related-out-fields", "InspectedOn,Result", "--related-order-by", "InspectedOn:desc",
            "--related-order-by", "Result", "--object-ids", "12,31", "--return-geometry",
        ])
        #expect(query["result"] as? String == "related")
        #expect(try QueryCommandTableTests.text(query["relationship"] ?? [:]) == #"{"name":"Hydrant_Inspections"}"#)
        #expect(query["relatedWhere"] as? String == "Result <> 'Pass'")
        #expect(query["relatedOutFields"] as? [String] == ["InspectedOn", "Result"])
        #expect(try QueryCommandTableTests.text(query["relatedOrderBy"] ?? []) == #"[{"direction":"desc","field":"InspectedOn"},{"field":"Result"}]"#)
        #expect(query["returnGeometry"] as? Bool == true)
        #expect(query["orderBy"] == nil)
    }

    /// An all-digits `--relationship` is the relationship's id; anything else its name.
    @Test(arguments: [("3", #"{"id":3}"#), ("0", #"{"id":0}"#), ("Inspections2", #"{"name":"Inspections2"}"#), ("-1", #"{"name":"-1"}"#)])
    func relationshipByNameOrId(argument: String, expected: String) async throws {
        let query = try await QueryCommandTableTests.query(["--result", "related", "--relationship=\(argument)"])
        #expect(try QueryCommandTableTests.text(query["relationship"] ?? [:]) == expected)
    }

    @Test func attachments() async throws {
        let query = try await QueryCommandTableTests.query(["--result", "attachments", "--where", "A = 1"])
        #expect(query["result"] as? String == "attachments" && query["where"] as? String == "A = 1")
        #expect(query["relationship"] == nil)
    }

    @Test(arguments: [
        (["--result", "related"], "query.relationship: required field missing"),
        (["--relationship", "R"], "belongs to result: related"),
        (["--result", "attachments", "--related-where", "A = 1"], "belongs to result: related"),
        (["--result", "related", "--relationship", "R", "--order-by", "A"], "has no order"),
        (["--result", "related", "--relationship", "R", "--related-where", "A ="], "query.relatedWhere"),
        (["--result", "related", "--relationship", "R", "--related-order-by", "A", "--related-order-by", "A:desc"], "named twice"),
        (["--result", "related", "--relationship", "99999999999"], "not a relationship id"),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        let executable = try #require(QueryWorkerCommandTests.queryWorker, "query-worker was not built")
        let output = try await CommandOutput.run(
            executable, ["query", "--bootstrap-servers", "127.0.0.1:1", "--dry-run", "--target", QueryCommandTableTests.layer] + arguments)
        #expect(output.status == 1, "\(output)")
        #expect(output.stderr.contains(message), "\(output)")
    }
}
