import FeatureQuerySupport
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// OGC API Features collections end to end: requests into the embedded Kafka cluster, the OGC
/// engine against the sample server's OGC face, outcomes read back from the topics and compared with the
/// data's ground truth (OGC feature ids are the ArcGIS OBJECTIDs).
@Suite("Worker OGC end to end")
struct WorkerOGCEndToEndTests {
    /// Pushed as CQL2 (`IN` needs advanced comparison operators, which the sample server declares).
    static let pushable = "ST IN ('CA', 'TX') AND POP2000 > 10000"
    /// CQL2 cannot say `CHAR_LENGTH`: only the equality can go as a Part 1 parameter; the worker filters.
    static let unsayable = "CHAR_LENGTH(CITY_NAME) > 10 AND ST = 'CA'"

    @Test func whereClausesFilteredByTheServerByTheWorkerAndDespiteALyingServer() async throws {
        let harness = try await WorkerHarness()
        let server = harness.server
        let cities = try WorkerHarness.collection(.cities)
        let (plain, noFilter, lying) = (
            server.ogcURL, server.ogcURL(quirks: ["no-filter"]), server.ogcURL(quirks: ["filter-ignored"]))
        let pushable = #"{"where":"\#(Self.pushable)"}"#
        try await harness.send("server", WorkerHarness.ogcRequest("server", landing: plain, collection: cities, query: pushable))
        try await harness.send("unsayable", WorkerHarness.ogcRequest(
            "unsayable", landing: plain, collection: cities, query: #"{"where":"\#(Self.unsayable)"}"#))
        try await harness.send("no-filter", WorkerHarness.ogcRequest("no-filter", landing: noFilter, collection: cities, query: pushable))
        try await harness.send("lying", WorkerHarness.ogcRequest("lying", landing: lying, collection: cities, query: pushable))
        // The same as counts (a count reads numberMatched off a small first page only when it can trust it).
        let counts: [(id: String, landing: String, clause: String)] = [
            ("count-server", plain, Self.pushable), ("count-unsayable", plain, Self.unsayable),
            ("count-no-filter", noFilter, Self.pushable), ("count-lying", lying, Self.pushable),
        ]
        for (id, landing, clause) in counts {
            try await harness.send(id, WorkerHarness.ogcRequest(
                id, landing: landing, collection: cities, query: #"{"where":"\#(clause)","result":"count"}"#))
        }

        let outcomes = try await harness.outcomesByRequest(8).compactMapValues(\.first)
        let truth = try harness.dataset.groundTruthObjectIDs(.cities, where: Self.pushable)
        let unsayable = try harness.dataset.groundTruthObjectIDs(.cities, where: Self.unsayable)
        try #require(!truth.isEmpty && !unsayable.isEmpty && truth.count < 3_000, "the clauses select some cities, not all")

        let expected: [(id: String, landing: String, filteredBy: String, truth: [Int])] = [
            ("server", plain, "server", truth), ("unsayable", plain, "client", unsayable),
            ("no-filter", noFilter, "client", truth), ("lying", lying, "client", truth),
        ]
        for (id, landing, filteredBy, ids) in expected {
            let outcome = outcomes[id]
            #expect(outcome?.status == "succeeded", "\(id): \(String(describing: outcome))")
            let layer = outcome?.firstLayer
            #expect(layer?.text("url") == WorkerHarness.collectionURL(landing, cities), "\(id)")
            #expect(layer?.text("collection") == cities, "\(id)")
            #expect(layer?.text("filteredBy") == filteredBy, "\(id)")
            #expect(layer?["complete"] == .bool(true), "\(id)")
            #expect(layer?.integer("count") == ids.count, "\(id)")
            #expect(layer?.integerFeatureIDs?.sorted() == ids, "\(id): exactly the matching cities")
            #expect(layer?["objectIds"] == nil, "\(id): an OGC entry has featureIds, not objectIds")
            #expect(layer?["layerId"] == nil && layer?["objectIdField"] == nil, "\(id): collection instead of layerId")
            // docs/contract: an OGC entry "has `collection` (the id) instead of `layerId`, `name` and `objectIdField`".
            #expect(layer?["name"] == nil, "\(id): \(String(describing: layer?["name"]))")
        }

        for (id, filteredBy, ids) in [
            ("count-server", "server", truth), ("count-unsayable", "client", unsayable), ("count-no-filter", "client", truth),
            ("count-lying", "client", truth),
        ] {
            let layer = outcomes[id]?.firstLayer
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
            #expect(layer?.integer("count") == ids.count, "\(id): the matches, not what the server claimed")
            #expect(layer?.text("filteredBy") == filteredBy, "\(id)")
            #expect(layer?["complete"] == .bool(true), "\(id)")
            #expect(layer?["featureIds"] == nil, "\(id): a count carries no ids")
        }

        // What each server was asked: the clause as CQL2 where it was declared, never where it was not.
        let requests = server.statistics.recentOGCItemRequests(cities)
        let plainPath = "/ogc/collections/\(cities)/items"
        #expect(requests.contains { $0.path == plainPath && ($0.parameter("filter") ?? "").contains("POP2000") })
        #expect(requests.contains { $0.path == plainPath && $0.parameter("filter") == nil && $0.parameter("ST") == "CA" },
                "the equality CQL2 could carry went as a Part 1 parameter")
        #expect(requests.contains { $0.path.hasPrefix("/ogc-quirks/filter-ignored/") && $0.parameter("filter") != nil },
                "the lying server was sent the filter it then ignored")
        #expect(!requests.contains { $0.path.hasPrefix("/ogc-quirks/no-filter/") && $0.parameter("filter") != nil },
                "a server without Part 3 is never sent a filter")

        try await harness.stop()
    }

    @Test func maxFeaturesCutsAndFeaturesAlignWithTheirIds() async throws {
        let harness = try await WorkerHarness()
        let landing = harness.server.ogcURL
        let cities = try WorkerHarness.collection(.cities)
        let daraa = DaraaCollection.transportationGroundPnt
        let longNames = "CHAR_LENGTH(CITY_NAME) > 8"
        try await harness.send("cut", WorkerHarness.ogcRequest(
            "cut", landing: landing, collection: cities, query: #"{"maxFeatures":1000,"result":"features","returnGeometry":true}"#))
        try await harness.send("cut-client", WorkerHarness.ogcRequest(
            "cut-client", landing: landing, collection: cities, query: #"{"where":"\#(longNames)","maxFeatures":50}"#))
        try await harness.send("whole", WorkerHarness.ogcRequest(
            "whole", landing: landing, collection: daraa.id, query: #"{"result":"features","outFields":["F_CODE"]}"#))

        let roads = DaraaCollection.transportationGroundCrv
        let recentRoads = "F_CODE IN ('AP030', 'AP050') AND ZI001_SDV >= DATE '2016-01-01'"
        try await harness.send("roads", WorkerHarness.ogcRequest(
            "roads", landing: landing, collection: roads.id,
            query: #"{"where":"\#(recentRoads)","maxFeatures":1000,"result":"features","returnGeometry":true}"#))

        try await harness.send("narrow", WorkerHarness.ogcRequest(
            "narrow", landing: landing, collection: cities,
            query: #"{"where":"\#(Self.unsayable)","result":"features","outFields":["POP2000"]}"#))

        let outcomes = try await harness.outcomesByRequest(5).compactMapValues(\.first)
        let everyCity = try harness.dataset.groundTruthObjectIDs(.cities)
        try #require(everyCity.count > 1_000)

        // The first 1,000 of the collection's 3,503 in the server's order, the server's total as the count.
        let cut = outcomes["cut"]?.firstLayer
        #expect(outcomes["cut"]?.status == "succeeded")
        #expect(cut?.integerFeatureIDs == Array(everyCity.prefix(1_000)))
        #expect(cut?["complete"] == .bool(false))
        #expect(cut?.text("incompleteReason") == "max_features")
        #expect(cut?.integer("count") == everyCity.count, "no filter: the server's numberMatched")
        #expect(cut?["filteredBy"] == nil, "no filter, no filteredBy")
        #expect(cut?.integerGeoJSONIDs == cut?.integerFeatureIDs, "features aligned with featureIds")
        let features = cut?["features"]?.elements("features") ?? []
        #expect(features.count == 1_000)
        #expect(features.allSatisfy { Self.isUSLonLatPoint($0["geometry"]) }, "WGS 84 lon/lat points")

        // Cut while the worker filters: a prefix of the matches, and a count that is a lower bound.
        let clientTruth = try harness.dataset.groundTruthObjectIDs(.cities, where: longNames)
        try #require(clientTruth.count > 50)
        let clientCut = outcomes["cut-client"]?.firstLayer
        #expect(outcomes["cut-client"]?.status == "succeeded")
        #expect(clientCut?.text("filteredBy") == "client")
        #expect(clientCut?.integerFeatureIDs == Array(clientTruth.prefix(50)))
        #expect(clientCut?["complete"] == .bool(false))
        #expect(clientCut?.text("incompleteReason") == "max_features")
        #expect(clientCut?.integer("count") == 51, "the ids held plus the match that revealed the cut")

        // The seed's Daraa load: 1,000 of the matching roads (server-filtered, dates compared as dates), curves.
        let roadTruth = try harness.dataset.groundTruthObjectIDs(roads, where: recentRoads)
        try #require(roadTruth.count > 1_000, "more matching roads than the cut")
        let cutRoads = outcomes["roads"]?.firstLayer
        #expect(outcomes["roads"]?.status == "succeeded", "\(String(describing: outcomes["roads"]))")
        #expect(cutRoads?.text("filteredBy") == "server")
        #expect(cutRoads?.integerFeatureIDs == Array(roadTruth.prefix(1_000)))
        #expect(cutRoads?.integerGeoJSONIDs == cutRoads?.integerFeatureIDs)
        #expect(cutRoads?.text("incompleteReason") == "max_features")
        #expect(cutRoads?.integer("count") == roadTruth.count, "the server counted every match")
        let roadFeatures = cutRoads?["features"]?.elements("features") ?? []
        #expect(roadFeatures.allSatisfy { Self.isDaraaLine($0["geometry"]) }, "lines in Daraa, lon/lat")

        // Filtered by the worker on fields the caller did not ask for: the right cities, only POP2000 published.
        let narrow = outcomes["narrow"]?.firstLayer
        #expect(outcomes["narrow"]?.status == "succeeded")
        #expect(narrow?.integerFeatureIDs == (try harness.dataset.groundTruthObjectIDs(.cities, where: Self.unsayable)))
        #expect(narrow?.integerGeoJSONIDs == narrow?.integerFeatureIDs)
        #expect((narrow?["features"]?.elements("features") ?? []).allSatisfy { feature in
            if case .object(let properties)? = feature["properties"] { Array(properties.keys) == ["POP2000"] } else { false }
        }, "outFields keeps POP2000 alone")
        #expect((narrow?["features"]?.elements("features") ?? []).allSatisfy { $0["geometry"] == nil || $0["geometry"] == .null },
                "no geometry unless asked")

        // A whole Daraa collection as features: every id once, features aligned, only the fields asked for.
        let whole = outcomes["whole"]?.firstLayer
        #expect(outcomes["whole"]?.status == "succeeded")
        #expect(whole?.integerFeatureIDs == Array(1...daraa.featureCount))
        #expect(whole?.integerGeoJSONIDs == whole?.integerFeatureIDs)
        #expect(whole?["complete"] == .bool(true))
        #expect(whole?.integer("count") == daraa.featureCount)
        let daraaFeatures = whole?["features"]?.elements("features") ?? []
        #expect(daraaFeatures.allSatisfy { feature in
            if case .object(let properties)? = feature["properties"] { Array(properties.keys) == ["F_CODE"] } else { false }
        }, "outFields keeps F_CODE alone")

        try await harness.stop()
    }

    @Test func aLargeOGCResultIsSplitIntoPartsThatReassemble() async throws {
        let harness = try await WorkerHarness { settings in settings.limits.maxResultBytes = 4_096 }
        let landing = harness.server.ogcURL
        let cities = try WorkerHarness.collection(.cities)
        let clause = "ST = 'CA'"
        try await harness.send("split", WorkerHarness.ogcRequest(
            "split", landing: landing, collection: cities, query: #"{"where":"\#(clause)","result":"features"}"#))

        let parts = try await harness.outcomes { values in
            guard let total = values.first?.integer("parts") else { return !values.isEmpty }
            return values.count >= total
        }.sorted { ($0.integer("part") ?? 0) < ($1.integer("part") ?? 0) }
        let truth = try harness.dataset.groundTruthObjectIDs(.cities, where: clause)
        try #require(truth.count > 50, "enough cities to need parts")

        #expect(parts.count > 1, "a 4 KiB message limit splits the result")
        #expect(parts.map { $0.integer("part") } == Array(1...parts.count).map { Optional($0) })
        #expect(parts.allSatisfy { $0.integer("parts") == parts.count && $0.status == "succeeded" && $0.text("requestId") == "split" })
        let entries = parts.flatMap(\.layerEntries)
        #expect(entries.allSatisfy { entry in
            entry.text("url") == WorkerHarness.collectionURL(landing, cities) && entry.text("collection") == cities
                && entry.integer("count") == truth.count && entry["complete"] == .bool(true)
                && entry.text("filteredBy") == "server"
        }, "every slice carries the layer's fields")
        let ids = entries.flatMap { $0.integerFeatureIDs ?? [] }
        let featureIDs = entries.flatMap { $0.integerGeoJSONIDs ?? [] }
        #expect(ids.sorted() == truth, "the slices put back together give every match once")
        #expect(featureIDs == ids, "features and featureIds are cut at the same places")

        try await harness.stop()
    }

    /// Whether a GeoJSON geometry is a line string (or several) whose positions are lon/lat in Daraa.
    static func isDaraaLine(_ geometry: ParsedJSON?) -> Bool {
        let lines: [ParsedJSON]
        switch geometry?.text("type") {
        case "LineString": lines = [geometry?["coordinates"] ?? .null]
        case "MultiLineString": lines = geometry?.elements("coordinates") ?? []
        default: return false
        }
        let positions: [ParsedJSON] = lines.flatMap { line -> [ParsedJSON] in
            if case .array(let positions) = line { positions } else { [] }
        }
        return !positions.isEmpty && positions.allSatisfy { position in
            guard case .array(let pair) = position, pair.count == 2, case .number(let lon) = pair[0],
                case .number(let lat) = pair[1]
            else { return false }
            return (35.8...36.7).contains(lon) && (32.3...33.2).contains(lat)
        }
    }

    /// Whether a GeoJSON geometry is a point in the United States as longitude then latitude (swapped axes or
    /// Web Mercator metres fail).
    static func isUSLonLatPoint(_ geometry: ParsedJSON?) -> Bool {
        guard geometry?.text("type") == "Point", let position = geometry?.elements("coordinates"), position.count == 2,
            case .number(let lon) = position[0], case .number(let lat) = position[1]
        else { return false }
        return (-180 ... -60).contains(lon) && (15...75).contains(lat)
    }
}
