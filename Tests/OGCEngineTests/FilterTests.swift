import FeatureService
import HTTPTestServer
import QueryLanguage
import Testing

@testable import OGCEngine
import Logging

/// Where clauses go to the server only when it proves it can take them, and every feature it returns is
/// checked again in the worker.
@Suite("OGC filtering, never silently dropped")
struct FilterTests {
    /// Ten features, `n` 1...10, `kind` "odd"/"even".
    static let features: [String] = (1...10).map {
        OGCTestServer.feature(id: "\($0)", x: Double($0), y: Double($0), properties: #"{"n":\#($0),"kind":"\#($0 % 2 == 0 ? "even" : "odd")"}"#)
    }

    static let queryables = #"{"type":"object","properties":{"n":{"type":"integer"},"kind":{"type":"string"}}}"#

    /// An honest server: evaluates the CQL2 text filter with QueryLanguage.
    static let honest: OGCTestServer.Items = { request in
        guard let text = request.queryItems.first(where: { $0.name == "filter" })?.value else {
            return .json(OGCTestServer.page(features, numberMatched: features.count))
        }
        let filter = try WhereClause(cql2Text: text).compile(fieldNames: ["n", "kind"])
        let kept = (1...10).filter { filter.matches([.integer(Int64($0)), .string($0 % 2 == 0 ? "even" : "odd")]) }
        return .json(OGCTestServer.page(kept.map { features[$0 - 1] }, numberMatched: kept.count))
    }

    @Test func cql2IsPushedWhenConformanceAndQueryablesProveIt() async throws {
        let server = try await OGCTestServer.start(conformance: OGCTestServer.cql2Text, queryables: Self.queryables, items: Self.honest)
        let (logger, logs) = CapturedLogs.logger()
        let outcome = try await server.withEngine(logger: logger) {
            await server.query($0, ServiceQuery(whereClause: try WhereClause("n > 6 AND kind = 'even'"), result: .ids))
        }
        let result = try #require(outcome.success)
        #expect(result.featureIds == [.integer(8), .integer(10)])
        #expect(result.filteredBy == .server)
        #expect(!logs.all.contains { $0.level >= .warning })
        #expect(result.count == 2 && result.isComplete)
        let sent = server.itemRequests.first?.queryItems
        #expect(sent?.first { $0.name == "filter-lang" }?.value == "cql2-text")
        #expect(sent?.first { $0.name == "filter" } != nil)
    }

    @Test func aServerThatIgnoresTheFilterIsCaughtAndTheAnswerIsStillRight() async throws {
        let server = try await OGCTestServer.start(conformance: OGCTestServer.cql2Text, queryables: Self.queryables) { _ in
            .json(OGCTestServer.page(Self.features, numberMatched: 10))
        }
        let (logger, logs) = CapturedLogs.logger()
        let outcome = try await server.withEngine(logger: logger) {
            await server.query($0, ServiceQuery(whereClause: try WhereClause("n > 6 AND kind = 'even'"), result: .ids))
        }
        let result = try #require(outcome.success)
        #expect(result.featureIds == [.integer(8), .integer(10)])
        #expect(result.filteredBy == .client)
        #expect(result.count == 2)
        #expect(server.itemRequests.first?.queryItems.contains { $0.name == "filter" } == true)
        // The log names the server that lied, and how many features it should not have returned.
        let warnings = logs.all.filter { $0.level == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.metadata["server"] == server.landing)
        #expect(warnings.first?.metadata["collection"] == "things")
        #expect(warnings.first?.metadata["features.rejected"] == "8")
    }

    @Test func withoutFilterConformanceTheWorkerFilters() async throws {
        let server = try await OGCTestServer.start { _ in .json(OGCTestServer.page(Self.features, numberMatched: 10)) }
        let outcome = try await server.withEngine {
            await server.query($0, ServiceQuery(whereClause: try WhereClause("n IN (2, 3) OR kind LIKE 'od%' AND n < 4"), result: .ids))
        }
        let result = try #require(outcome.success)
        #expect(result.featureIds == [1, 2, 3].map { FeatureID.integer($0) })
        #expect(result.filteredBy == .client)
        #expect(server.itemRequests.first?.queryItems.contains { $0.name == "filter" } == false)
    }

    @Test func likeNeedsAdvancedComparisonOperators() async throws {
        let server = try await OGCTestServer.start(conformance: OGCTestServer.cql2Text, queryables: Self.queryables, items: Self.honest)
        let outcome = try await server.withEngine {
            await server.query($0, ServiceQuery(whereClause: try WhereClause("kind LIKE 'ev%'"), result: .ids))
        }
        #expect(outcome.success?.featureIds.count == 5)
        #expect(outcome.success?.filteredBy == .client)
        #expect(server.itemRequests.first?.queryItems.contains { $0.name == "filter" } == false)
    }

    @Test func aFieldThatIsNoQueryableIsFilteredInTheWorker() async throws {
        let queryables = #"{"type":"object","properties":{"kind":{"type":"string"}}}"#
        let server = try await OGCTestServer.start(conformance: OGCTestServer.cql2Text, queryables: queryables, items: Self.honest)
        let outcome = try await server.withEngine {
            await server.query($0, ServiceQuery(whereClause: try WhereClause("n = 3"), result: .ids))
        }
        #expect(outcome.success?.featureIds == [.integer(3)])
        #expect(outcome.success?.filteredBy == .client)
    }

    @Test func aFieldTheQueryablesRuleOutIsAnInvalidQuery() async throws {
        let queryables = #"{"type":"object","properties":{"kind":{"type":"string"}},"additionalProperties":false}"#
        let server = try await OGCTestServer.start(conformance: OGCTestServer.cql2Text, queryables: queryables, items: Self.honest)
        let outcome = try await server.withEngine {
            await server.query($0, ServiceQuery(whereClause: try WhereClause("Zoning = 'R1'"), result: .ids))
        }
        let error = try #require(outcome.failure)
        #expect(error.code == .invalidQuery)
        #expect(error.message.contains("Zoning") && error.message.contains("kind"))
        #expect(server.itemRequests.isEmpty)
    }

    @Test func simpleEqualitiesGoAsQueryableParameters() async throws {
        let conformance = OGCTestServer.part1 + ["http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables-query-parameters"]
        let server = try await OGCTestServer.start(conformance: conformance, queryables: Self.queryables) { request in
            let kind = request.queryItems.first { $0.name == "kind" }?.value
            let kept = Self.features.enumerated().filter { kind == nil || (($0.offset + 1) % 2 == 0 ? "even" : "odd") == kind }
            return .json(OGCTestServer.page(kept.map(\.element), numberMatched: kept.count))
        }
        let outcome = try await server.withEngine {
            await server.query($0, ServiceQuery(whereClause: try WhereClause("kind = 'odd'"), result: .count))
        }
        #expect(outcome.success?.count == 5)
        #expect(outcome.success?.filteredBy == .server)
        #expect(server.itemRequests.first?.queryItems.first { $0.name == "kind" }?.value == "odd")
    }

    @Test func partOfAClauseAsParametersIsNoLieWhenTheRestFilters() async throws {
        let conformance = OGCTestServer.part1 + ["http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables-query-parameters"]
        let server = try await OGCTestServer.start(conformance: conformance, queryables: Self.queryables) { request in
            let kind = request.queryItems.first { $0.name == "kind" }?.value
            let kept = Self.features.enumerated().filter { kind == nil || (($0.offset + 1) % 2 == 0 ? "even" : "odd") == kind }
            return .json(OGCTestServer.page(kept.map(\.element), numberMatched: kept.count))
        }
        let outcome = try await server.withEngine {
            await server.query($0, ServiceQuery(whereClause: try WhereClause("kind = 'odd' AND n > 4"), result: .ids))
        }
        let result = try #require(outcome.success)
        #expect(result.featureIds == [5, 7, 9].map { FeatureID.integer($0) })
        #expect(result.filteredBy == .client && result.count == 3 && result.isComplete)
        #expect(server.itemRequests.first?.queryItems.first { $0.name == "kind" }?.value == "odd")
    }

    @Test func outFieldsKeepOnlyThoseProperties() async throws {
        let server = try await OGCTestServer.start { _ in .json(OGCTestServer.page(Array(Self.features.prefix(2)), numberMatched: 2)) }
        let outcome = try await server.withEngine {
            await server.query($0, ServiceQuery(outFields: ["KIND"], returnGeometry: false, result: .features))
        }
        guard case .features(let list)? = outcome.success?.selection else {
            Issue.record("features expected")
            return
        }
        #expect(list.json.map { String(decoding: Array($0), as: UTF8.self) } == [
            #"{"type":"Feature","id":1,"geometry":null,"properties":{"kind":"odd"}}"#,
            #"{"type":"Feature","id":2,"geometry":null,"properties":{"kind":"even"}}"#,
        ])
    }
}
