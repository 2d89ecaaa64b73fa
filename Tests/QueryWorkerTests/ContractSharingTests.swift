import Foundation
import QueryLanguage
import Testing

@testable import QueryWorker
import FeatureService
@testable import RequestContract

/// Two requests of a task that ask the same share one run, however their where clauses are spelled:
/// field names in any letter case, whole numbers with or without `.0`.
@Suite struct ContractSharingTests {
    static func request(_ id: String, where clause: String) throws -> QueryRequest {
        QueryRequest(
            requestId: id, taskId: "t", receivedAt: 0,
            targets: [.arcgis(url: "https://gis.example.org/a/MapServer", layers: [0])],
            query: QuerySpec(filter: .clause(try WhereClause(clause))))
    }

    @Test(arguments: [
        ("pop2000 > 100000", "POP2000 > 100000.0"),
        ("Pop2000 BETWEEN 1 AND 2.0", "POP2000 BETWEEN 1.0 AND 2"),
        ("STATE_FIPS IN (6, 12.0) AND pop2000 >= 1E5", "state_fips IN (6.0, 12) AND POP2000 >= 100000"),
        ("UPPER(name) = 'X'", "upper(NAME) = 'X'"),
    ])
    func spellingsOfOneMeaningShareARun(_ pair: (String, String)) throws {
        let first = try Self.request("r-1", where: pair.0)
        let second = try Self.request("r-2", where: pair.1)
        #expect(first.asksSame(as: second))
        #expect(first.query == second.query)
        #expect(first.query.hashValue == second.query.hashValue)
    }

    @Test(arguments: [
        ("POP2000 > 100000", "POP2000 > 100000.5"),
        ("POP2000 > 100000", "POP2000 >= 100000"),
        ("NAME = 'Springfield'", "NAME = 'springfield'"),
        ("POP2000 / 2 > 1", "POP2000 / 2.0 > 1"),
        ("POP2000 > 100000", "AREA > 100000"),
    ])
    func differentMeaningsDoNot(_ pair: (String, String)) throws {
        let first = try Self.request("r-1", where: pair.0)
        let second = try Self.request("r-2", where: pair.1)
        #expect(!first.asksSame(as: second))
    }

    /// One credential may see features another may not: requests that differ only in their credential (or in
    /// naming one at all) never share a run, and the engine gets each one's credential.
    @Test func differentCredentialsDoNotShareARun() throws {
        var first = try Self.request("r-1", where: "POP2000 > 1")
        var second = try Self.request("r-2", where: "POP2000 > 1")
        #expect(first.asksSame(as: second))
        first.credential = "county-gis"
        #expect(!first.asksSame(as: second))
        second.credential = "state-gis"
        #expect(!first.asksSame(as: second))
        second.credential = "county-gis"
        #expect(first.asksSame(as: second))
        #expect(first.serviceQuery.credential == "county-gis")
        #expect(first.serviceQuery != (try Self.request("r-3", where: "POP2000 > 1")).serviceQuery)
    }

    /// Requests and service queries keep their members in one shared box (a copy is one reference): they must
    /// still behave as values. A changed copy leaves the original as it was, and equal members in separate
    /// boxes are equal and hash alike.
    @Test func boxedRequestsAndQueriesAreStillValues() throws {
        let original = try Self.request("r-1", where: "POP2000 > 1")
        var changed = original
        changed.deadline = 5_000
        changed.taskId = "other"
        changed.query.maxFeatures = 10
        #expect(original.deadline == nil && original.taskId == "t" && original.query.maxFeatures == nil)
        #expect(changed.deadline == 5_000 && changed.taskId == "other" && changed.query.maxFeatures == 10)
        #expect(changed != original)
        let twin = try Self.request("r-1", where: "POP2000 > 1")
        #expect(twin == original && twin.hashValue == original.hashValue)

        let query = original.serviceQuery
        var narrowed = query
        narrowed.outFields = ["NAME"]
        narrowed.result = .count
        #expect(query.outFields == ["*"] && query.result == .ids)
        #expect(narrowed.outFields == ["NAME"] && narrowed.result == .count)
        #expect(narrowed != query)
        #expect(twin.serviceQuery == query && twin.serviceQuery.hashValue == query.hashValue)
    }

    @Test func theClauseSentIsTheOneWritten() throws {
        let clause = try WhereClause("pop2000 > 100000.0")
        #expect(clause.arcGISSQL.contains("pop2000"))
        #expect(clause.meaningKey == (try WhereClause("POP2000 > 100000")).meaningKey)
    }
}

extension QueryRequest {
    /// Whether `other` asks for exactly the same work: the same targets and the same query (after defaults;
    /// where clauses compare by meaning, not spelling): equal `WorkFingerprint`s, which share a run.
    func asksSame(as other: QueryRequest) -> Bool {
        WorkFingerprint(self) == WorkFingerprint(other)
    }
}
