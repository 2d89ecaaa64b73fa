import FeatureQuerySupport
import FeatureService
import HTTPTestServer
import Hummingbird
import Logging
import QueryLanguage
import Testing

@testable import OGCEngine

/// Feature-table parameters on a scripted server: `datetime`, `sortby` where declared (and its order checked),
/// pygeoapi's "out of range" as an empty selection, and the OpenAPI items parameters.
@Suite("OGC feature-table parameters")
struct FeatureTableScriptedTests {
    static let sorting = OGCTestServer.part1 + [
        "http://www.opengis.net/spec/ogcapi-features-8/1.0/conf/sorting",
        "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables",
    ]
    /// `Pop`: the query's `pop` is sent spelt as the queryables spell it.
    static let popQueryables = #"{"type":"object","properties":{"Pop":{"type":"integer"}}}"#
    static let temporal = OGCTestServer.collection(
        "things", extra: #","extent":{"temporal":{"interval":[["2000-01-01T00:00:00Z",null]]}}"#)

    static func value(_ request: Request, _ name: String) -> String? {
        request.queryItems.first { $0.name == name }?.value
    }

    @Test func timeWindowsAreSentAsDatetime() async throws {
        #expect(ItemsOptions.datetime(TimeWindow(start: 0, end: 1_500)) == "1970-01-01T00:00:00.000Z/1970-01-01T00:00:01.500Z")
        #expect(ItemsOptions.datetime(TimeWindow(start: nil, end: 86_400_000)) == "../1970-01-02T00:00:00.000Z")
        #expect(ItemsOptions.datetime(TimeWindow(start: 86_400_000, end: nil)) == "1970-01-02T00:00:00.000Z/..")
        #expect(ItemsOptions.datetime(TimeWindow(start: 1_000, end: 1_000)) == "1970-01-01T00:00:01.000Z")
        let server = try await OGCTestServer.start(collections: [Self.temporal]) { _ in
            .json(OGCTestServer.page([OGCTestServer.feature(id: "1"), OGCTestServer.feature(id: "2")], numberMatched: 2))
        }
        let outcome = try await server.withEngine { engine in
            await server.query(engine, ServiceQuery(result: .ids, time: TimeWindow(start: 0, end: nil)))
        }
        #expect(outcome.success?.featureIds == [.integer(1), .integer(2)])
        #expect(outcome.success?.filteredBy == .server)
        #expect(server.itemRequests.compactMap { Self.value($0, "datetime") } == ["1970-01-01T00:00:00.000Z/.."])
    }

    @Test func aWindowOutOfTheCollectionsRangeSelectsNothing() async throws {
        let server = try await OGCTestServer.start(collections: [Self.temporal]) { request in
            if Self.value(request, "datetime") != nil {
                return .json(#"{"code":"InvalidParameterValue","description":"datetime parameter out of range"}"#, status: 400)
            }
            return .json(OGCTestServer.page([OGCTestServer.feature(id: "1")], numberMatched: 1))
        }
        let (windowed, plain) = try await server.withEngine { engine in
            (await server.query(engine, ServiceQuery(result: .statistics, time: TimeWindow(start: 0, end: 10),
                                                    statistics: [StatisticDefinition(type: .count, field: "n", name: "c")])),
             await server.query(engine, ServiceQuery(result: .count)))
        }
        let result = try #require(windowed.success, "\(String(describing: windowed.failure))")
        #expect(result.count == 0 && result.isComplete)
        if case .statistics(let rows) = result.selection {
            #expect(rows.count == 1 && rows.first?.values.first?.value == .integer(0))
        } else {
            Issue.record("statistics expected")
        }
        #expect(plain.success?.count == 1)
    }

    /// A server declaring sorting that returns `order` (by population) for `sortby=-pop`, `size` features a page.
    static func sortingServer(_ order: [(id: Int, pop: Int)], size: Int = 1) async throws -> OGCTestServer {
        try await OGCTestServer.start(conformance: sorting, queryables: popQueryables) { request in
            let page = Self.value(request, "page").flatMap(Int.init) ?? 0
            let features = order.dropFirst(page * size).prefix(size).map {
                OGCTestServer.feature(id: String($0.id), properties: #"{"pop":\#($0.pop)}"#)
            }
            let next = (page + 1) * size < order.count ? "items?page=\(page + 1)" : nil
            return .json(OGCTestServer.page(features, next: next, numberMatched: order.count))
        }
    }

    @Test func aServerThatSortsIsCreditedWhenItsWholeSequenceHolds() async throws {
        // 150 features by population descending, with a tie at the second place.
        let order = [(5, 10_000), (2, 9_000), (9, 9_000)] + (0..<147).map { (100 + $0, 8_000 - $0) }
        let honest = try await Self.sortingServer(order, size: 10)
        let query = ServiceQuery(maxFeatures: 2, result: .ids, orderBy: [OrderTerm(field: "pop", descending: true)])
        let outcome = try await honest.withEngine { await honest.query($0, query) }
        let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
        #expect(result.featureIds == [.integer(5), .integer(2)])
        #expect(result.orderedBy == .server && result.incompleteReason == .maxFeatures)
        #expect(honest.itemRequests.first.flatMap { Self.value($0, "sortby") } == "-Pop")
        // The order is a claim checked over the whole selection: every page is read (15 of 10).
        #expect(honest.itemRequests.count == 15)
        #expect(result.count == order.count)
        // A few features in order prove nothing: all six are read.
        let short = try await Self.sortingServer([(5, 90), (2, 80), (9, 80), (1, 70), (4, 60), (3, 50)])
        let shortOutcome = try await short.withEngine { await short.query($0, query) }
        #expect(shortOutcome.success?.featureIds == [.integer(5), .integer(2)])
        #expect(shortOutcome.success?.count == 6 && shortOutcome.success?.orderedBy == .server)
        #expect(short.itemRequests.count == 6)
    }

    @Test func aServerWhoseSortDoesNotHoldIsSortedByTheWorker() async throws {
        let liar = try await Self.sortingServer([(5, 10), (2, 80), (9, 30), (1, 95), (4, 60), (3, 50)])
        let (logger, logs) = CapturedLogs.logger()
        let query = ServiceQuery(maxFeatures: 2, result: .ids, orderBy: [OrderTerm(field: "pop", descending: true)])
        let outcome = try await liar.withEngine(logger: logger) { await liar.query($0, query) }
        let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
        #expect(result.featureIds == [.integer(1), .integer(2)])
        #expect(result.orderedBy == .worker && result.count == 6)
        #expect(logs.all.contains { $0.level == .warning && $0.metadata["sortby"] != nil && $0.metadata["server"] != nil })
    }

    @Test func withoutSortingNoSortbyIsSent() async throws {
        let server = try await OGCTestServer.start { _ in
            .json(OGCTestServer.page([
                OGCTestServer.feature(id: "1", properties: #"{"pop":1}"#), OGCTestServer.feature(id: "2", properties: #"{"pop":3}"#),
            ]))
        }
        let query = ServiceQuery(result: .ids, orderBy: [OrderTerm(field: "pop", descending: true)])
        let outcome = try await server.withEngine { await server.query($0, query) }
        #expect(outcome.success?.featureIds == [.integer(2), .integer(1)])
        #expect(outcome.success?.orderedBy == .worker)
        #expect(server.itemRequests.allSatisfy { Self.value($0, "sortby") == nil && Self.value($0, "properties") == nil })
    }

    @Test func statisticsAskOnlyForTheirDeclaredProperties() async throws {
        let conformance = Self.sorting + ["http://www.opengis.net/spec/ogcapi-features-6/1.0/conf/property-selection"]
        let server = try await OGCTestServer.start(conformance: conformance, queryables: Self.popQueryables) { _ in
            .json(OGCTestServer.page([
                OGCTestServer.feature(id: "1", properties: #"{"pop":2,"kind":"a"}"#),
                OGCTestServer.feature(id: "2", properties: #"{"pop":5,"kind":"b"}"#),
            ], numberMatched: 2))
        }
        let (declared, undeclared) = try await server.withEngine { engine in
            (await server.query(engine, ServiceQuery(result: .statistics, statistics: [StatisticDefinition(type: .sum, field: "pop", name: "s")])),
             await server.query(engine, ServiceQuery(outFields: ["kind"], result: .distinct)))
        }
        guard case .statistics(let rows)? = declared.success?.selection else {
            Issue.record("statistics expected: \(String(describing: declared.failure))")
            return
        }
        #expect(rows.first?.values.first?.value == .integer(7))
        #expect(undeclared.success?.selection.itemCount == 2)
        let sent = server.itemRequests.map { Self.value($0, "properties") }
        #expect(sent == ["Pop", nil])
    }

    @Test func percentilesBeyondTheResultBudgetAreRefused() async throws {
        let server = try await OGCTestServer.start { _ in
            .json(OGCTestServer.page((1...6).map { OGCTestServer.feature(id: "\($0)", properties: #"{"n":\#($0)}"#) }, numberMatched: 6))
        }
        let median = [StatisticDefinition(type: .percentileCont, field: "n", name: "m", percentile: 0.5)]
        let query = ServiceQuery(result: .statistics, statistics: median)
        let target = [ServiceTarget(kind: .ogc, url: server.landing, layers: ["things"])]
        let (tight, roomy) = try await server.withEngine { engine in
            (await engine.query(target, query, budget: ResultBudget(limit: 16 * 5))[0][0],
             await engine.query(target, query, budget: ResultBudget(limit: 16 * 6))[0][0])
        }
        #expect(tight.failure?.code == .limitExceeded)
        #expect(tight.failure?.message.contains("percentiles") == true)
        guard case .statistics(let rows)? = roomy.success?.selection else {
            Issue.record("statistics expected: \(String(describing: roomy.failure))")
            return
        }
        #expect(rows.first?.values.first?.value == .double(3.5))
    }

    @Test func theOpenAPIDocumentNamesTheItemsParameters() throws {
        let document = try ParsedJSONFixture.parse(#"""
            {"openapi":"3.0.2","paths":{
              "/collections/obs/items":{"get":{"parameters":[
                {"$ref":"#/components/parameters/skipGeometry"},
                {"$ref":"https://schemas.opengis.net/ogcapi/features/part1/1.0/openapi/ogcapi-features-1.yaml#/components/parameters/limit"},
                {"$ref":"https://schemas.opengis.net/ogcapi/records/part1/1.0/openapi/parameters/sortby.yaml"},
                {"name":"properties","in":"query","schema":{"type":"array"}},
                {"name":"collectionId","in":"path"}]}},
              "/collections/obs":{"get":{"parameters":[{"name":"other","in":"query"}]}}},
             "components":{"parameters":{"skipGeometry":{"name":"skipGeometry","in":"query"}}}}
            """#)
        #expect(OpenAPIItemsParameters.names(in: document) == ["skipGeometry", "limit", "sortby", "properties"])
    }
}
