import FeatureService
import HTTPTestServer
import Testing

@testable import OGCEngine
import HTTPTypes
import HummingbirdCore

/// Paging only by `next`, with each quirk real servers have, over loopback HTTP.
@Suite("OGC paging by next links")
struct PagingTests {
    static let ids = ServiceQuery(result: .ids)

    /// Pages of `perPage` features with integer ids from 1 to `total`, linked by `next` hrefs `link(page)`.
    static func pagedItems(total: Int, perPage: Int, numberMatched: Int?, link: @escaping @Sendable (Int) -> String) -> OGCTestServer.Items {
        { request in
            let page = request.queryItems.first { $0.name == "page" }.flatMap { Int($0.value) } ?? 0
            let start = page * perPage + 1
            let end = min(total, start + perPage - 1)
            let features = start <= end ? (start...end).map { OGCTestServer.feature(id: "\($0)") } : []
            let next = end < total ? link(page + 1) : nil
            return .json(OGCTestServer.page(features, next: next, numberMatched: numberMatched))
        }
    }

    @Test func relativeCursorLinksAreResolvedAgainstTheResponseURL() async throws {
        let server = try await OGCTestServer.start(items: Self.pagedItems(total: 25, perPage: 10, numberMatched: 25) {
            "?page=\($0)&cursor=opaque\($0)"
        })
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        let result = try #require(outcome.success)
        #expect(result.featureIds == (1...25).map { FeatureID.integer(Int64($0)) })
        #expect(result.count == 25 && result.isComplete && result.incompleteReason == nil)
        #expect(result.url == server.landing + "/collections/things")
        #expect(result.collection == "things")
        let requests = server.itemRequests
        #expect(requests.count == 3)
        #expect(requests.dropFirst().allSatisfy { $0.uri.path == "/ogc/collections/things/items" && $0.uri.query?.contains("cursor=") == true })
        #expect(requests.first?.uri.query?.contains("limit=10000") == true)
        #expect(requests.allSatisfy { $0.headers["Accept"] == "application/geo+json, application/json;q=0.9" })
        #expect(!requests.contains { $0.uri.query?.contains("offset") == true })
    }

    @Test func aCycleThroughEverChangingURLsIsCaughtByItsRepeats() async throws {
        let server = try await OGCTestServer.start { request in
            let page = request.queryItems.first { $0.name == "page" }.flatMap { Int($0.value) } ?? 0
            return .json(OGCTestServer.page([OGCTestServer.feature(id: "1"), OGCTestServer.feature(id: "2")], next: "items?page=\(page + 1)"))
        }
        var configuration = OGCTestServer.fastConfiguration
        configuration.maxConsecutiveEmptyPages = 5
        let outcome = try await server.withEngine(configuration) { await server.query($0, Self.ids) }
        #expect(outcome.failure?.code == .pagingCycle)
        #expect(server.itemRequests.count == 6 || server.itemRequests.count == 7)
    }

    @Test func dotSegmentAndAbsolutePathLinksWork() async throws {
        let server = try await OGCTestServer.start(items: Self.pagedItems(total: 15, perPage: 5, numberMatched: nil) {
            $0 == 1 ? "../things/./items?page=1" : "/ogc/collections/things/items?page=\($0)"
        })
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        let result = try #require(outcome.success)
        #expect(result.count == 15 && result.isComplete)
    }

    @Test func aNextLinkBackToAFetchedPageIsACycle() async throws {
        let server = try await OGCTestServer.start { request in
            .json(OGCTestServer.page([OGCTestServer.feature(id: "1")], next: "items?page=1"))
        }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        let error = try #require(outcome.failure)
        #expect(error.code == .pagingCycle)
        #expect(error.message.contains("collections/things"))
        #expect(server.itemRequests.count == 2)
    }

    @Test func aNextLinkToAnotherOriginFailsTheLayerWithoutFollowingIt() async throws {
        let other = try await OGCTestServer.start { _ in .json(OGCTestServer.page([OGCTestServer.feature(id: "99")])) }
        let foreign = other.http.url("/ogc/collections/things/items?page=1")
        let server = try await OGCTestServer.start { request in
            .json(OGCTestServer.page([OGCTestServer.feature(id: "1")], next: foreign))
        }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        #expect(outcome.failure?.code == .foreignNextLink)
        #expect(other.itemRequests.isEmpty)
        await other.shutdown()
    }

    @Test func emptyMiddlePagesAreFollowedAndASpuriousNextEndsNormally() async throws {
        let server = try await OGCTestServer.start { request in
            let page = request.queryItems.first { $0.name == "page" }.flatMap { Int($0.value) } ?? 0
            switch page {
            case 0: return .json(OGCTestServer.page(["1", "2"].map { OGCTestServer.feature(id: $0) }, next: "items?page=1", numberMatched: 4))
            case 1, 2: return .json(OGCTestServer.page([], next: "items?page=\(page + 1)", numberMatched: 4))
            case 3: return .json(OGCTestServer.page(["3", "4"].map { OGCTestServer.feature(id: $0) }, next: "items?page=4", numberMatched: 4))
            default: return .json(OGCTestServer.page([], numberMatched: 4))
            }
        }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        let result = try #require(outcome.success)
        #expect(result.featureIds == [1, 2, 3, 4].map { FeatureID.integer($0) })
        #expect(result.isComplete)
        #expect(server.itemRequests.count == 5)
    }

    @Test func endlessEmptyPagesAreBounded() async throws {
        let server = try await OGCTestServer.start { request in
            let page = request.queryItems.first { $0.name == "page" }.flatMap { Int($0.value) } ?? 0
            return .json(OGCTestServer.page([], next: "items?page=\(page + 1)"))
        }
        var configuration = OGCTestServer.fastConfiguration
        configuration.maxConsecutiveEmptyPages = 5
        let outcome = try await server.withEngine(configuration) { await server.query($0, Self.ids) }
        #expect(outcome.failure?.code == .pagingStalled)
        #expect(server.itemRequests.count == 5)
    }

    @Test func anHTMLNextLinkIsNeverFollowedAndGeoJSONIsPreferred() async throws {
        let server = try await OGCTestServer.start { request in
            let page = request.queryItems.first { $0.name == "page" }.map(\.value)
            if page == "json" { return .json(OGCTestServer.page([OGCTestServer.feature(id: "2")])) }
            if page != nil { return .text("<html><title>wrong</title></html>", contentType: "text/html") }
            let links = #"[{"rel":"next","href":"items?page=html","type":"text/html"},"#
                + #"{"rel":"next","href":"items?page=json","type":"application/geo+json"},"#
                + #"{"rel":"next","href":"items?page=plain","type":"application/json"}]"#
            return .json(#"{"type":"FeatureCollection","features":[\#(OGCTestServer.feature(id: "1"))],"links":\#(links)}"#)
        }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        #expect(outcome.success?.featureIds == [.integer(1), .integer(2)])
    }

    @Test func duplicatesAreDroppedByTypedIdAndFeaturesWithoutIdKept() async throws {
        let server = try await OGCTestServer.start { request in
            let second = request.queryItems.contains { $0.name == "page" }
            if second {
                return .json(OGCTestServer.page([OGCTestServer.feature(id: "2"), OGCTestServer.feature(id: #""1""#), OGCTestServer.feature(id: nil)]))
            }
            return .json(OGCTestServer.page(
                [OGCTestServer.feature(id: "1"), OGCTestServer.feature(id: "2"), OGCTestServer.feature(id: nil),
                 OGCTestServer.feature(id: "9007199254740993"), OGCTestServer.feature(id: "9007199254740992"),
                 OGCTestServer.feature(id: "2.0"), OGCTestServer.feature(id: "2.5")],
                next: "items?page=1"))
        }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        let result = try #require(outcome.success)
        // Ids beyond 2^53 stay exact and distinct; `2.0` is the number 2 again; `2.5` keeps its text.
        #expect(result.featureIds == [
            .integer(1), .integer(2), nil, .integer(9_007_199_254_740_993), .integer(9_007_199_254_740_992), .string("2.5"),
            .string("1"), nil,
        ])
        #expect(result.count == 8)
    }

    @Test func aWrongNumberMatchedMarksTheResultIncomplete() async throws {
        let server = try await OGCTestServer.start(items: Self.pagedItems(total: 12, perPage: 5, numberMatched: 20) { "items?page=\($0)" })
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        let result = try #require(outcome.success)
        #expect(!result.isComplete)
        #expect(result.incompleteReason == .countMismatch)
        #expect(result.featureIds.count == 12)
    }

    @Test func aMissingNumberMatchedCountsWhatArrived() async throws {
        let server = try await OGCTestServer.start(items: Self.pagedItems(total: 12, perPage: 5, numberMatched: nil) { "items?page=\($0)" })
        let outcome = try await server.withEngine { await server.query($0, ServiceQuery(result: .count)) }
        let result = try #require(outcome.success)
        #expect(result.count == 12 && result.isComplete)
        // A small probe page first; without numberMatched the collection is read from the start with large pages.
        #expect(server.itemRequests.map { $0.queryItems.first { $0.name == "limit" }?.value } == ["100", "10000", nil, nil])
    }

    @Test func aCountWithNumberMatchedReadsOnePage() async throws {
        let server = try await OGCTestServer.start(items: Self.pagedItems(total: 50, perPage: 5, numberMatched: 50) { "items?page=\($0)" })
        let outcome = try await server.withEngine { await server.query($0, ServiceQuery(result: .count)) }
        #expect(outcome.success?.count == 50)
        #expect(outcome.success?.isComplete == true)
        #expect(server.itemRequests.count == 1)
    }

    @Test func maxFeaturesCutsAndSaysSo() async throws {
        let server = try await OGCTestServer.start(items: Self.pagedItems(total: 30, perPage: 10, numberMatched: 30) { "items?page=\($0)" })
        let outcome = try await server.withEngine {
            await server.query($0, ServiceQuery(returnGeometry: true, maxFeatures: 15, result: .features))
        }
        let result = try #require(outcome.success)
        #expect(result.count == 30)
        #expect(!result.isComplete && result.incompleteReason == .maxFeatures)
        guard case .features(let list) = result.selection else {
            Issue.record("features expected")
            return
        }
        #expect(list.count == 15)
        let first = String(decoding: Array(list.json[0]), as: UTF8.self)
        // The geometry's bytes as the server wrote them: coordinates are never parsed and printed again.
        #expect(first == #"{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[10.0,20.0]},"properties":{"n":1}}"#)
        #expect(server.itemRequests.first?.uri.query?.contains("limit=16") == true)
    }

    @Test func prettyPrintedFeaturesArePublishedCompactWithTheirStringsIntact() async throws {
        let page = """
            {
              "type" : "FeatureCollection",
              "numberMatched" : 1,
              "features" : [ {
                "type" : "Feature", "id" : "a b", "bbox" : [ 1, 2, 1, 2 ],
                "geometry" : { "type" : "Point", "coordinates" : [ 1.5, 2 ] },
                "properties" : { "name" : "Main St \\"North\\" ", "tags" : [ "a, b", null ] }
              } ],
              "links" : [ ]
            }
            """
        let server = try await OGCTestServer.start { _ in .json(page) }
        let outcome = try await server.withEngine {
            await server.query($0, ServiceQuery(returnGeometry: true, result: .features))
        }
        guard case .features(let list)? = outcome.success?.selection else {
            Issue.record("features expected: \(String(describing: outcome.failure))")
            return
        }
        #expect(list.json.map { String(decoding: Array($0), as: UTF8.self) } == [
            #"{"type":"Feature","id":"a b","geometry":{"type":"Point","coordinates":[1.5,2]},"properties":{"name":"Main St \"North\" ","tags":["a, b",null]}}"#
        ])
        #expect(outcome.success?.featureIds == [.string("a b")])
    }

    @Test func theResultBudgetCutsAndSaysSo() async throws {
        let server = try await OGCTestServer.start(items: Self.pagedItems(total: 30, perPage: 10, numberMatched: 30) { "items?page=\($0)" })
        let budget = ResultBudget(limit: 16 * 12)
        let outcome = try await server.withEngine { engine in
            await engine.query([ServiceTarget(kind: .ogc, url: server.landing, layers: ["things"])], Self.ids, budget: budget)[0][0]
        }
        let result = try #require(outcome.success)
        #expect(result.featureIds.count == 12 && result.count == 30)
        #expect(!result.isComplete && result.incompleteReason == .resultBudget)
        #expect(budget.isSpent)
    }

    @Test func moreFeaturesThanHeldWithoutMaxFeaturesIsLimitExceeded() async throws {
        let server = try await OGCTestServer.start(items: Self.pagedItems(total: 30, perPage: 10, numberMatched: 30) { "items?page=\($0)" })
        var configuration = OGCTestServer.fastConfiguration
        configuration.maxFeaturesInMemory = 20
        let outcome = try await server.withEngine(configuration) { await server.query($0, ServiceQuery(result: .features)) }
        #expect(outcome.failure?.code == .limitExceeded)
    }

    @Test func aLargeLimitRefusedWith400IsAskedOnceSmaller() async throws {
        let server = try await OGCTestServer.start { request in
            let limit = request.queryItems.first { $0.name == "limit" }.flatMap { Int($0.value) } ?? 10
            if limit > 1_000 {
                return .json(#"{"code":"InvalidParameterValue","description":"limit must be at most 1000"}"#, status: 400)
            }
            return .json(OGCTestServer.page([OGCTestServer.feature(id: "1")], numberMatched: 1))
        }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        #expect(outcome.success?.featureIds == [.integer(1)])
        #expect(server.itemRequests.map { $0.queryItems.first { $0.name == "limit" }?.value } == ["10000", "1000"])
    }

    @Test func aFirstPageThatKeepsFailingWith500IsAskedOnceSmaller() async throws {
        let server = try await OGCTestServer.start { request in
            let limit = request.queryItems.first { $0.name == "limit" }.flatMap { Int($0.value) } ?? 10
            if limit > 1_000 { return .text("out of memory", status: 500) }
            return .json(OGCTestServer.page([OGCTestServer.feature(id: "1")], numberMatched: 1))
        }
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        #expect(outcome.success?.featureIds == [.integer(1)])
        #expect(server.itemRequests.map { $0.queryItems.first { $0.name == "limit" }?.value } == ["10000", "10000", "10000", "1000"])
    }

    @Test func theOpenAPIMaximumIsTheLimitAskedFor() async throws {
        let limit = OpenAPILimit.maximum(in: try ParsedJSONFixture.parse(
            #"{"components":{"parameters":{"limit":{"name":"limit","in":"query","schema":{"type":"integer","maximum":500}}}},"#
                + #""paths":{"/collections/a/items":{"get":{"parameters":[{"name":"limit","in":"query","schema":{"maximum":2000}}]}}}}"#))
        #expect(limit == 500)
    }
}
