import CurlHTTP
import FeatureQuerySupport
import PygeoapiFixture
import QueryLanguage
import Testing

/// pygeoapi 0.21 (PyPI) as the independent OGC API Features server: what it declares and how it pages and
/// filters, over a GeoJSON file and over PostGIS, asserted so that a pygeoapi upgrade that changes any of it
/// fails here first (docs/pygeoapi.md lists the quirks). One server per test process
/// (``PygeoapiSampleService/shared()``).
@Suite(.enabled(if: PygeoapiSampleService.isAvailable, "pygeoapi, PostgreSQL or ogr2ogr missing: run scripts/setup-deps"))
struct PygeoapiServerTests {
    typealias Support = PygeoapiTestSupport

    /// A where clause with a range and an IN list, rendered as CQL2 text by QueryLanguage.
    static let clause = "POP2000 > 50000 AND ST IN ('CA', 'TX', 'NY')"

    @Test func landingPageLinksConformanceDataAndServiceDescription() async throws {
        let service = try await PygeoapiSampleService.shared()
        try await Support.withClient { client in
            let response = try await Support.get(client, service.landingURL + "/?f=json")
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json")
            let landing = try ParsedJSON(reading: response.body)
            #expect(Support.link(landing, rel: "conformance") == service.landingURL + "/conformance")
            #expect(Support.link(landing, rel: "data") == service.landingURL + "/collections")
            #expect(Support.link(landing, rel: "service-desc") == service.landingURL + "/openapi")
            let collections = try await Support.json(client, service.landingURL + "/collections?f=json")
            guard case .array(let listed)? = collections["collections"] else { throw UnexpectedAnswer("no collections") }
            let ids = listed.compactMap { if case .string(let id)? = $0["id"] { id } else { nil } }
            #expect(Set(ids) == ["cities", "cities_postgis", "states", "states_postgis"])
        }
    }

    /// pygeoapi 0.21 declares Parts 1 and 2 and queryables, but no filter or CQL2 class at all, even with a
    /// PostgreSQL collection that evaluates `filter` (0.24 declares them globally, for every provider).
    @Test func conformanceDeclaresQueryablesButNoFilterClasses() async throws {
        let service = try await PygeoapiSampleService.shared()
        let conformance = try await Support.withClient { try await Support.json($0, service.landingURL + "/conformance?f=json") }
        guard case .array(let classes)? = conformance["conformsTo"] else { throw UnexpectedAnswer("no conformsTo") }
        let declared = Set(classes.compactMap { if case .string(let uri) = $0 { uri } else { nil } })
        let features = "http://www.opengis.net/spec/ogcapi-features-"
        for part in ["1/1.0/conf/core", "1/1.0/conf/geojson", "1/1.0/conf/oas30", "2/1.0/conf/crs", "3/1.0/conf/queryables",
                     "3/1.0/conf/queryables-query-parameters"] {
            #expect(declared.contains(features + part), "\(part) not declared")
        }
        #expect(!declared.contains(features + "3/1.0/conf/filter"))
        #expect(!declared.contains(features + "3/1.0/conf/features-filter"))
        #expect(declared.filter { $0.contains("cql") }.isEmpty, "CQL classes declared: \(declared.filter { $0.contains("cql") })")
    }

    /// Paging by `next` only over a whole collection: every id once, in pages of `limit`. pygeoapi links a
    /// `next` from every full page, so when the count is a multiple of the limit (51 states = 3 × 17) the
    /// exact last page still has a `next`, to an empty page; 3,503 cities by 500 end on a short page.
    @Test(arguments: [("cities", 500), ("cities_postgis", 500), ("states", 17), ("states_postgis", 17)])
    func pagingByNextCoversTheCollection(collection: String, limit: Int) async throws {
        let service = try await PygeoapiSampleService.shared()
        let expected = collection.hasPrefix("cities") ? service.cities.featureCount : service.states.featureCount
        let pages = try await Support.withClient { client in
            var pages: [PygeoapiTestSupport.Page] = []
            var next: String? = Support.url(service.server.collectionURL(collection) + "/items", [("limit", String(limit))])
            var seen: Set<String> = []
            while let url = next, pages.count <= expected / limit + 2 {
                #expect(seen.insert(url).inserted, "next cycles back to \(url)")
                let page = try Support.page(try await Support.json(client, url))
                pages.append(page)
                next = page.next
            }
            return pages
        }
        let ids = pages.flatMap(\.ids)
        #expect(ids.count == expected)
        #expect(Set(ids) == Set(1...expected))
        #expect(pages.map(\.ids.count) == Array(repeating: limit, count: expected / limit) + [expected % limit])
        #expect(pages.allSatisfy { $0.numberMatched == expected })
        #expect(pages.last?.next == nil)
    }

    /// On PostGIS the CQL2 text filter is evaluated: exactly the ground truth comes back.
    @Test func cql2FilterIsEvaluatedOnPostGIS() async throws {
        let service = try await PygeoapiSampleService.shared()
        let truth = try Support.groundTruth(service.cities, where: Self.clause)
        #expect(truth.count > 10 && truth.count < service.cities.featureCount / 10, "a selective clause: \(truth.count)")
        let page = try await filtered(service, service.cities.postGISCollection)
        #expect(page.numberMatched == truth.count)
        #expect(page.ids.sorted() == truth)
    }

    /// On the GeoJSON file the same filter is accepted (HTTP 200) and ignored: every feature comes back.
    /// This is the lying server the OGC engine must detect by re-checking features locally.
    @Test func cql2FilterIsIgnoredOnGeoJSON() async throws {
        let service = try await PygeoapiSampleService.shared()
        let page = try await filtered(service, service.cities.geoJSONCollection)
        #expect(page.numberMatched == service.cities.featureCount)
        #expect(page.ids.count == service.cities.featureCount)
    }

    /// 0.21 only knows the draft `filter-lang` values: `cql2-text` is a 400, `cql-text` is accepted.
    @Test func filterLangAcceptsOnlyTheDraftNames() async throws {
        let service = try await PygeoapiSampleService.shared()
        let filter = try WhereClause(Self.clause).cql2Text()
        let items = service.server.collectionURL(service.cities.postGISCollection) + "/items"
        let statuses = try await Support.withClient { client in
            var statuses: [String: Int] = [:]
            for language in ["cql2-text", "cql-text"] {
                let url = Support.url(items, [("filter", filter), ("filter-lang", language), ("limit", "1")])
                statuses[language] = try await Support.get(client, url).status
            }
            return statuses
        }
        #expect(statuses == ["cql2-text": 400, "cql-text": 200])
    }

    /// Items come as `application/json` although GeoJSON is asked for first; `limit=0` is a 400.
    @Test func itemsContentTypeAndZeroLimit() async throws {
        let service = try await PygeoapiSampleService.shared()
        let items = service.server.collectionURL(service.cities.geoJSONCollection) + "/items"
        let (content, zero) = try await Support.withClient { client in
            let content = try await Support.get(client, Support.url(items, [("limit", "1")]))
            let zero = try await Support.get(client, Support.url(items, [("limit", "0")]))
            return (content.headers["Content-Type"], zero.status)
        }
        #expect(content == "application/json")
        #expect(zero == 400)
    }

    /// A `limit` above `max_items` is clamped, not refused, for both providers; the `next` link then keeps the
    /// limit asked for and advances `offset` by the clamped page, so paging by `next` still covers the whole
    /// collection. A server of its own (``PygeoapiServer/start(collections:maxItems:ownedDirectories:)``) over
    /// the shared service's file and table, with `max_items` 1,000.
    @Test func limitAboveMaxItemsIsClamped() async throws {
        let service = try await PygeoapiSampleService.shared()
        let server = try await PygeoapiServer.start(
            collections: [
                PygeoapiCollection(id: "file", title: "Cities file", source: .geoJSONFile(path: service.cities.geoJSONPath)),
                PygeoapiCollection(id: "table", title: "Cities table", source: .postGIS(service.database, table: "cities")),
            ],
            maxItems: 1_000)
        do {
            let pages = try await Support.withClient { client in
                var pages: [String: [PygeoapiTestSupport.Page]] = [:]
                for collection in ["file", "table"] {
                    var next: String? = Support.url(server.collectionURL(collection) + "/items", [("limit", "5000")])
                    while let url = next, pages[collection, default: []].count < 10 {
                        let page = try Support.page(try await Support.json(client, url))
                        pages[collection, default: []].append(page)
                        next = page.next
                    }
                }
                return pages
            }
            let expected = service.cities.featureCount
            for (collection, collectionPages) in pages {
                #expect(collectionPages.map(\.ids.count) == [1_000, 1_000, 1_000, expected - 3_000], "\(collection)")
                #expect(Set(collectionPages.flatMap(\.ids)) == Set(1...expected), "\(collection)")
                let firstNext = collectionPages.first?.next ?? ""
                #expect(firstNext.hasSuffix("/items?offset=1000&limit=5000"), "\(collection) next: \(firstNext)")
            }
            await server.stop()
            let afterStop = try? await Support.withClient { try await Support.get($0, server.landingURL + "/?f=json") }
            #expect(afterStop == nil, "pygeoapi still answers after stop()")
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A bbox crossing the antimeridian (minx > maxx) matches the complement on both providers: the cities
    /// between -179 and 179, all of them, instead of those beyond ±179 (none). A client must split it in two.
    @Test(arguments: ["cities", "cities_postgis"])
    func antimeridianBBoxMatchesTheComplement(collection: String) async throws {
        let service = try await PygeoapiSampleService.shared()
        let beyond = try Support.longitudes(service.cities).filter { $0 >= 179 || $0 <= -179 }.count
        let url = Support.url(service.server.collectionURL(collection) + "/items", [("bbox", "179,-90,-179,90"), ("limit", "10000")])
        let page = try await Support.withClient { try Support.page(try await Support.json($0, url)) }
        #expect(beyond == 0)
        #expect(page.ids.count == service.cities.featureCount - beyond)
    }

    /// A CQL2 function the parser knows and the PostgreSQL provider can't run (`CASEI`) is an HTTP 500 with
    /// an HTML body, not the JSON exception document.
    @Test func unsupportedFunctionIsAnHTMLServerError() async throws {
        let service = try await PygeoapiSampleService.shared()
        let url = Support.url(
            service.server.collectionURL(service.cities.postGISCollection) + "/items", [("filter", "CASEI(\"ST\") = CASEI('ca')")])
        let response = try await Support.withClient { try await Support.get($0, url) }
        #expect(response.status == 500)
        #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == true)
    }

    /// The fixture starts once per test process, whoever asks first: a second caller gets the same running
    /// pygeoapi and the same start-up record. Its start-up times are printed for the record only; how long it
    /// takes depends on the machine's load (tens of seconds when a thousand tests share two cores), which is
    /// for the test script's per-process timings to show, not for a test to judge.
    @Test func startsOncePerProcess() async throws {
        let first = try await PygeoapiSampleService.shared()
        let second = try await PygeoapiSampleService.shared()
        let startup = first.startup
        print("pygeoapi fixture start-up: data \(startup.sampleData), postgres \(startup.postgres), pygeoapi \(startup.pygeoapi), total \(startup.total)")
        #expect(second.landingURL == first.landingURL)
        #expect(second.startup.total == startup.total)
        #expect(startup.total >= startup.pygeoapi)
    }

    private func filtered(_ service: PygeoapiSampleService, _ collection: String) async throws -> PygeoapiTestSupport.Page {
        let filter = try WhereClause(Self.clause).cql2Text()
        let url = Support.url(service.server.collectionURL(collection) + "/items", [("filter", filter), ("limit", "10000")])
        return try await Support.withClient { try Support.page(try await Support.json($0, url)) }
    }
}
