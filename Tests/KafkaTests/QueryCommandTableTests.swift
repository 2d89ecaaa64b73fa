import ChildProcessFixture
import Foundation
import Testing

/// `query-worker query`'s feature-table flags (contract 1.2), turned into the request a producer would send:
/// `--dry-run` prints the request the worker's decoder accepted, so no broker is needed.
@Suite struct QueryCommandTableTests {
    static let layer = "http://h/arcgis/rest/services/S/FeatureServer/0"

    /// The `query` member of the request that `arguments` make, as a JSON object.
    static func query(_ arguments: [String]) async throws -> [String: Any] {
        let executable = try #require(QueryWorkerCommandTests.queryWorker, "query-worker was not built")
        let output = try await CommandOutput.run(
            executable, ["query", "--bootstrap-servers", "127.0.0.1:1", "--dry-run", "--request-id", "r", "--target", layer] + arguments)
        #expect(output.status == 0, "\(output)")
        let request = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        return try #require(request?["query"] as? [String: Any], "\(output)")
    }

    /// `value` as canonical JSON text, for comparing with what a test expects.
    static func text(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }

    @Test func statisticsFlagsMakeTheStatisticsMembers() async throws {
        let query = try await Self.query([
            "--result", "statistics", "--statistic", "count:APN:parcels", "--statistic", "sum:Value",
            "--statistic", "percentileCont:Value:0.5", "--statistic", "percentileDisc:Value:p90:0.9",
            "--group-by", "UseType,Zone", "--group-by", "Year", "--order-by", "parcels:desc", "--order-by", "UseType",
        ])
        #expect(query["result"] as? String == "statistics")
        let statistics: [[String: Any]] = [
            ["type": "count", "field": "APN", "name": "parcels"], ["type": "sum", "field": "Value"],
            ["type": "percentileCont", "field": "Value", "percentile": 0.5],
            ["type": "percentileDisc", "field": "Value", "name": "p90", "percentile": 0.9],
        ]
        #expect(try Self.text(query["statistics"] ?? []) == (try Self.text(statistics)))
        #expect(query["groupBy"] as? [String] == ["UseType", "Zone", "Year"])
        #expect(try Self.text(query["orderBy"] ?? []) == (try Self.text([["field": "parcels", "direction": "desc"], ["field": "UseType"]])))
    }

    @Test func timeObjectIdsAndOrder() async throws {
        let query = try await Self.query([
            "--time", "2025-01-01T00:00:00Z/..", "--object-ids", "1, 2,a-17", "--order-by", "Value:asc", "--result", "features",
        ])
        #expect(try Self.text(query["time"] ?? [:]) == #"{"start":"2025-01-01T00:00:00Z"}"#)
        #expect(try Self.text(query["objectIds"] ?? []) == #"[1,2,"a-17"]"#)
        #expect(try Self.text(query["orderBy"] ?? []) == #"[{"field":"Value"}]"#)
        let openStart = try await Self.query(["--time", "../2025-01-01T00:00:00+01:00", "--result", "extent"])
        #expect(try Self.text(openStart["time"] ?? [:]) == #"{"end":"2025-01-01T00:00:00+01:00"}"#)
        #expect(openStart["result"] as? String == "extent")
    }

    @Test func distinct() async throws {
        let query = try await Self.query(["--result", "distinct", "--out-fields", "A,B"])
        #expect(query["result"] as? String == "distinct" && query["outFields"] as? [String] == ["A", "B"])
    }

    @Test(arguments: [
        (["--statistic", "median:A"], "TYPE one of count"),
        (["--statistic", "percentileCont:A"], "needs a percentile"),
        (["--statistic", "sum:A:name:0.5"], "only percentileCont and percentileDisc"),
        (["--order-by", "A:down"], "not a direction"),
        (["--time", "2025-01-01T00:00:00Z"], "expected START/END"),
        (["--time", "../.."], "at least one bound"),
        (["--object-ids", "1,,2"], "one is empty"),
        (["--group-by", "A", "--group-by", "A"], "named twice"),
        (["--statistic", "sum:A"], "belongs to result: statistics"),
        (["--result", "statistics"], "query.statistics: required field missing"),
        (["--result", "distinct"], "query.outFields"),
        (["--time", "2025-06-02T00:00:00Z/2025-06-01T00:00:00Z"], "is after the end"),
        (["--result", "count", "--order-by", "A"], "has no order"),
        (["--wait"], "nothing to --wait for"),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        let executable = try #require(QueryWorkerCommandTests.queryWorker, "query-worker was not built")
        let output = try await CommandOutput.run(
            executable, ["query", "--bootstrap-servers", "127.0.0.1:1", "--dry-run", "--target", Self.layer] + arguments)
        #expect(output.status == 1, "\(output)")
        #expect(output.stderr.contains(message), "\(output)")
    }
}
