import CurlHTTP
import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import FeatureServiceEngines
import QueryLanguage
import SampleFeatureServer
import Testing

@testable import OGCEngine

/// The "same selection": each of the seed's seven clauses within the seed extent selects the same
/// parcels through the OGC engine (the sample server's OGC face, CQL2 pushed down) as through the ArcGIS
/// engine (LA_County_Parcels/FeatureServer/0), end to end through the worker's router, and both equal what
/// the data holds. Then the OGC face's dishonest mounts: one that declares filtering and ignores `filter`
/// (caught by the worker's re-check) and one that declares none (the worker filters).
@Suite struct OGCEngineSampleServerParityTests {
    /// Several pages' worth of parcels in the seed extent for the larger clauses, quick to generate.
    static let parcelCount = 60_000
    static let clauses = NamedQueryCatalog.builtInExamples.map(\.clause)
    static let parcels = "LA_County_Parcels"

    /// One sample server per test process (generation is the slow part), never stopped: it ends with the process.
    private static let shared = Task {
        try await SampleFeatureServer.start(
            dataset: try SampleDataset.shared(parcelCount: parcelCount, seed: 7), logger: RealServerSupport.quietLogger)
    }

    static func truth(_ clause: String) throws -> [Int] {
        try SampleDataset.shared(parcelCount: parcelCount, seed: 7).groundTruthObjectIDs(
            .parcels, where: clause, envelope: SampleDataset.seedExtent)
    }

    /// Runs `body` with the shared server and the worker's router (both engines), recording the OGC requests.
    static func withRouter<T>(
        _ body: (SampleFeatureServer, FeatureServiceRouter, RealServerSupport.RequestLog) async throws -> T
    ) async throws -> T {
        let server = try await shared.value
        let log = RealServerSupport.RequestLog()
        let client = try HTTPClient(logger: RealServerSupport.quietLogger)
        let router = StandardEngines.router(
            httpClient: client, limits: StandardEngines.Limits(maxRequestsPerHost: 4, requestTimeout: .seconds(60)),
            logger: RealServerSupport.recordingLogger(log))
        do {
            let result = try await body(server, router, log)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    static func seedQuery(_ clause: String) throws -> ServiceQuery {
        ServiceQuery(whereClause: try WhereClause(clause), geometry: .envelope(SampleDataset.seedExtent), result: .ids)
    }

    /// On the plain OGC face (one page each), and on one whose largest page is 250 (several pages, and the
    /// larger clauses tiled).
    @Test(arguments: clauses, [[String](), ["max-limit-250"]])
    func seedClausesSelectTheSameParcelsThroughBothEngines(_ clause: String, _ quirks: [String]) async throws {
        let truth = try Self.truth(clause)
        #expect(truth.count > 20, "the seed extent should hold matches of \(clause)")
        try await Self.withRouter { server, router, log in
            let query = try Self.seedQuery(clause)
            let arcgisOutcomes = await router.query(
                [ServiceTarget(kind: .arcgis, url: server.layerURL(.parcels))], query, budget: .unlimited())
            let arcgis = try #require(arcgisOutcomes.first?.first).result.get()
            guard case .objectIds(let objectIds) = arcgis.selection else { throw RealServerFailure("ArcGIS gave no object ids") }
            let ogc = try await RealServerSupport.query(router, landing: server.ogcURL(quirks: quirks), collection: Self.parcels, query)

            #expect(objectIds.map { Int($0) }.sorted() == truth)
            #expect(try RealServerSupport.sortedIntegerIDs(ogc) == truth)
            #expect(ogc.count == arcgis.count)
            #expect(ogc.isComplete && arcgis.isComplete)
            #expect(ogc.filteredBy == .server)
            #expect(ogc.collection == Self.parcels)
            if !quirks.isEmpty { #expect(log.items.count > truth.count / 250, "paged by 250: \(log.items.count) requests") }
            #expect(log.itemsSent(parameter: "filter") && log.itemsSent(parameter: "bbox"), "\(log.items)")

            var countQuery = query
            countQuery.result = .count
            let arcgisCount = try #require(await router.query(
                [ServiceTarget(kind: .arcgis, url: server.layerURL(.parcels))], countQuery, budget: .unlimited()).first?.first).result.get()
            let ogcCount = try await RealServerSupport.query(
                router, landing: server.ogcURL(quirks: quirks), collection: Self.parcels, countQuery)
            #expect(arcgisCount.count == truth.count)
            #expect(ogcCount.count == truth.count)
            #expect(ogcCount.filteredBy == .server)
        }
    }

    /// Features, not only ids: each parcel both engines return carries the same properties and the same kind
    /// of geometry, within the seed extent (the OGC face paged by 250).
    @Test func theSameParcelsComeWithTheSameProperties() async throws {
        let clause = "UseType = 'Government'"
        let truth = try Self.truth(clause)
        try await Self.withRouter { server, router, _ in
            var query = try Self.seedQuery(clause)
            query.result = .features
            query.returnGeometry = true
            query.outSpatialReference = .wgs84
            let arcgis = try #require(await router.query(
                [ServiceTarget(kind: .arcgis, url: server.layerURL(.parcels))], query, budget: .unlimited()).first?.first).result.get()
            let ogc = try await RealServerSupport.query(
                router, landing: server.ogcURL(quirks: ["max-limit-250"]), collection: Self.parcels, query)
            let arcgisFeatures = try Self.featuresByID(arcgis)
            let ogcFeatures = try Self.featuresByID(ogc)
            #expect(arcgisFeatures.keys.sorted() == truth)
            #expect(ogcFeatures.keys.sorted() == truth)
            for id in truth {
                let left = arcgisFeatures[id]
                let right = ogcFeatures[id]
                #expect(Self.sameProperties(left?["properties"], right?["properties"]), "parcel \(id)")
                #expect(left?["geometry"]?["type"] == right?["geometry"]?["type"], "parcel \(id)")
                #expect(right?["geometry"]?["type"] != nil)
            }
        }
    }

    /// Whether two features' properties hold the same values. A date is the one thing the protocols write
    /// differently: epoch milliseconds from ArcGIS (its GeoJSON), an RFC 3339 string from OGC API Features;
    /// the same instant counts as the same value.
    static func sameProperties(_ left: ParsedJSON?, _ right: ParsedJSON?) -> Bool {
        guard let left = left?.objectValue, let right = right?.objectValue, left.keys.sorted() == right.keys.sorted() else { return false }
        return left.allSatisfy { name, value in
            switch (value, right[name]) {
            case (.number(let milliseconds), .string(let text)?), (.string(let text), .number(let milliseconds)?):
                return RFC3339.milliseconds(from: text).map { Double($0) == milliseconds } ?? false
            case (let value, let other?):
                return value == other
            case (_, nil):
                return false
            }
        }
    }

    /// A features result's GeoJSON features by integer id.
    static func featuresByID(_ result: ServiceLayerResult) throws -> [Int: ParsedJSON] {
        guard case .features(let list) = result.selection else { throw RealServerFailure("not features: \(result.url)") }
        var features: [Int: ParsedJSON] = [:]
        for bytes in list.json {
            let feature = try ParsedJSON(reading: bytes)
            guard case .number(let id)? = feature["id"], let integer = Int(exactly: id) else {
                throw RealServerFailure("a feature without an integer id from \(result.url)")
            }
            features[integer] = feature
        }
        return features
    }

    /// `filter-ignored` declares CQL2 and answers every parcel in the bbox: the worker's re-check drops what
    /// the clause does not select and credits itself, not the server.
    @Test func aServerIgnoringItsFilterIsCaught() async throws {
        let clause = "UseType = 'Government'"
        let truth = try Self.truth(clause)
        let all = try Self.truth("OBJECTID > 0")
        #expect(!truth.isEmpty && truth.count < all.count)
        try await Self.withRouter { server, router, log in
            let ogc = try await RealServerSupport.query(
                router, landing: server.ogcURL(quirks: ["filter-ignored"]), collection: Self.parcels, try Self.seedQuery(clause))
            #expect(try RealServerSupport.sortedIntegerIDs(ogc) == truth)
            #expect(ogc.count == truth.count)
            #expect(ogc.filteredBy == .client)
            #expect(ogc.isComplete)
            #expect(log.itemsSent(parameter: "filter"), "the engine trusted the declaration and sent the filter")
        }
    }

    /// `no-filter` declares no Part 3: nothing of the clause is sent, the worker filters, and says so.
    @Test(arguments: ["UseType = 'Government'", "Roll_LandValue > 1000000"])
    func aServerWithoutFilteringIsFilteredInTheWorker(_ clause: String) async throws {
        let truth = try Self.truth(clause)
        #expect(!truth.isEmpty)
        try await Self.withRouter { server, router, log in
            let ogc = try await RealServerSupport.query(
                router, landing: server.ogcURL(quirks: ["no-filter"]), collection: Self.parcels, try Self.seedQuery(clause))
            #expect(try RealServerSupport.sortedIntegerIDs(ogc) == truth)
            #expect(ogc.count == truth.count)
            #expect(ogc.filteredBy == .client)
            #expect(ogc.isComplete)
            #expect(!log.itemsSent(parameter: "filter"), "\(log.items)")
            #expect(!log.itemsSent(parameter: "UseType"))
            #expect(log.itemsSent(parameter: "bbox"))
        }
    }
}
