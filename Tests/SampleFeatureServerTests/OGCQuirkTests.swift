import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

@Suite("OGC quirks")
struct OGCQuirkTests {
    /// USA_States: 49 features, walked 10 at a time unless a test says otherwise.
    static let collection = "USA_States"

    @Test("no-filter: Part 3 is not declared, no queryables, and a filter is a 400")
    func noFilter() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let base = server.ogcURL(quirks: ["no-filter"])
            let classes = try await client.ogc(base + "/conformance")["conformsTo"] as? [String] ?? []
            #expect(classes.contains("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core"))
            #expect(!classes.contains { $0.contains("filter") || $0.contains("cql2") || $0.contains("queryables") })
            _ = try await client.ogc(base + "/collections/USA_States/queryables", status: 404)
            _ = try await client.ogc(server.itemsURL(Self.collection, quirks: ["no-filter"]), [("filter", "STATE_ABBR = 'CA'")], status: 400)
        }
    }

    @Test("filter-ignored: filtering is declared, and the filter is ignored (every feature comes back)")
    func filterIgnored() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let base = server.ogcURL(quirks: ["filter-ignored"])
            let classes = try await client.ogc(base + "/conformance")["conformsTo"] as? [String] ?? []
            #expect(classes.contains("http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter"))
            let page = try await client.ogc(server.itemsURL(Self.collection, quirks: ["filter-ignored"]), [("filter", "STATE_ABBR = 'CA'"), ("limit", "100")])
            #expect(page.numberMatched == 49 && page.features.count == 49)
            let honest = try await client.ogc(server.itemsURL(Self.collection), [("filter", "STATE_ABBR = 'CA'"), ("limit", "100")])
            #expect(honest.featureIDsOGC.count == 1)
        }
    }

    @Test("cursor: next links carry opaque tokens, never offset, and the walk is complete")
    func cursor() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let walk = try await OGCWalk.walk(client, server.itemsURL(Self.collection, quirks: ["cursor"]) + "?limit=10")
            #expect(walk.ids == Array(1...49))
            #expect(walk.urls.dropFirst().allSatisfy { $0.contains("cursor=") && !$0.contains("offset=") })
            #expect(walk.urls.count == 5)
        }
    }

    @Test("relative-links: next hrefs are relative and resolve to the rest of the collection")
    func relativeLinks() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let first = try await client.ogc(server.itemsURL(Self.collection, quirks: ["relative-links"]), [("limit", "10")])
            #expect(first.nextHref?.hasPrefix("items?") == true)
            let walk = try await OGCWalk.walk(client, server.itemsURL(Self.collection, quirks: ["relative-links"]) + "?limit=10")
            #expect(walk.ids == Array(1...49))
        }
    }

    @Test("max-limit-7 clamps pages to 7; with strict-limit a larger limit is a 400")
    func maxLimit() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let clamped = try await client.ogc(server.itemsURL(Self.collection, quirks: ["max-limit-7"]), [("limit", "100")])
            #expect(clamped.numberReturned == 7)
            let walk = try await OGCWalk.walk(client, server.itemsURL(Self.collection, quirks: ["max-limit-7"]) + "?limit=100")
            #expect(walk.ids == Array(1...49) && walk.pages.count == 7)
            let strict = server.itemsURL(Self.collection, quirks: ["max-limit-7", "strict-limit"])
            let refused = try await client.ogc(strict, [("limit", "8")], status: 400)
            #expect(refused["code"] as? String == "InvalidParameterValue")
            #expect(try await client.ogc(strict, [("limit", "7")]).numberReturned == 7)
        }
    }

    @Test("spurious-next: the last page still has a next, to an empty page without one")
    func spuriousNext() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let walk = try await OGCWalk.walk(client, server.itemsURL(Self.collection, quirks: ["spurious-next"]) + "?limit=7")
            #expect(walk.ids == Array(1...49))
            #expect(walk.pages.count == 8)
            #expect(walk.pages.last?.features.isEmpty == true && walk.pages.last?.nextHref == nil)
            #expect(walk.pages[6].nextHref != nil)
        }
    }

    @Test("empty-page: the second page is empty and has a next to the rest")
    func emptyPage() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let walk = try await OGCWalk.walk(client, server.itemsURL(Self.collection, quirks: ["empty-page"]) + "?limit=10")
            #expect(walk.pages[1].features.isEmpty && walk.pages[1].numberReturned == 0 && walk.pages[1].nextHref != nil)
            #expect(walk.ids == Array(1...49))
        }
    }

    @Test("duplicates: each page repeats the previous page's last feature")
    func duplicates() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let walk = try await OGCWalk.walk(client, server.itemsURL(Self.collection, quirks: ["duplicates"]) + "?limit=10")
            #expect(walk.ids.count > 49)
            #expect(Array(Set(walk.ids)).sorted() == Array(1...49))
            #expect(walk.pages[1].featureIDsOGC.first == walk.pages[0].featureIDsOGC.last)
        }
    }

    @Test("no-number-matched leaves numberMatched out; wrong-number-matched overstates it")
    func numberMatched() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let missing = try await client.ogc(server.itemsURL(Self.collection, quirks: ["no-number-matched"]))
            #expect(missing["numberMatched"] == nil && missing.numberReturned == 10)
            let wrong = try await client.ogc(server.itemsURL(Self.collection, quirks: ["wrong-number-matched"]))
            #expect(wrong.numberMatched == 59)
        }
    }

    @Test("other-origin: next names localhost instead of 127.0.0.1 (the same server under another origin)")
    func otherOrigin() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let url = server.itemsURL(Self.collection, quirks: ["other-origin"])
            #expect(url.hasPrefix("http://127.0.0.1:"))
            let page = try await client.ogc(url, [("limit", "10")])
            let next = try #require(page.nextHref)
            #expect(next.hasPrefix("http://localhost:\(server.port)/"))
            #expect(page.linkHref("self")?.hasPrefix("http://127.0.0.1:") == true)
        }
    }

    @Test("next-cycle: the second page's next leads back to the first")
    func nextCycle() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let walk = try await OGCWalk.walk(client, server.itemsURL(Self.collection, quirks: ["next-cycle"]) + "?limit=10", maxPages: 20)
            #expect(walk.cycled)
            #expect(walk.pages.count == 2 || walk.pages.count == 3)
            #expect(walk.ids.prefix(20) == ArraySlice(1...20))
        }
    }
}
