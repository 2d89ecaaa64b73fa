import FeatureQueryClient
import QueryLanguage
import SampleFeatureServer
import FeatureGeometry

/// One request of the demo and the outcome it must get.
struct DemoRequest: Sendable {
    var job: QueryJob
    var expected: DemoExpectation
    var requestId: String { job.requestId }
}

/// The outcome a demo request must get, with the dataset's ground truth for every layer that succeeds.
enum DemoExpectation: Sendable {
    /// Every layer succeeded with exactly these matches.
    case succeeded([ExpectedLayer])
    /// Some layers failed (`nil` ids), the others matched exactly.
    case partial([ExpectedLayer])
    /// Replaced by the newer request of its task.
    case superseded(by: String)
    /// Refused before anything ran, with this code.
    case rejected(code: String)
    /// `result: catalog` of one target: its entry lists exactly these ids (in any order).
    case catalog(url: String, ids: [String])
    /// `result: statistics` of one layer: succeeded, computed by `by` (`server` or `worker`), one row per
    /// group of the ground truth (``ExpectedStatistics``).
    case statistics(ExpectedStatistics)
    /// `result: related` of one layer: succeeded and complete, each origin's records in the ground truth's
    /// order (``ExpectedRelated``).
    case related(ExpectedRelated)
}

/// A layer of an expected result: its URL, and the object ids that match (brute force over the dataset),
/// or `nil` when the layer must fail. `idsReturned` is false for `result: count`.
struct ExpectedLayer: Sendable {
    var url: String
    var truth: [Int]?
    var idsReturned: Bool
    /// OGC collections: where the filter must have run (`server` or `client`); `nil` to not check.
    var filteredBy: String? = nil
    /// The request's `maxFeatures` when it cuts the selection: the entry must hold that many distinct matches,
    /// marked incomplete (`max_features`), with the whole count.
    var maxFeatures: Int? = nil
    /// `truth` is in the request's `orderBy` order, not ascending: the ids must come in exactly that order
    /// (the first `maxFeatures` of it when cut), and the entry must say who ordered them (`orderedBy`).
    var ordered = false
    /// The error code a failing layer (`truth` nil) must have; `nil` to accept any.
    var failureCode: String? = nil
}

/// The demo's requests, phase by phase: the seed's seven where clauses, the USA fan-out, a host outside
/// the allowlist, the OGC flow, the feature-table queries, related records, then (with faults on) a sublayer
/// failing on its own and a burst showing supersession, then the secured layer.
struct DemoPlan: Sendable {
    var seedPhase: [DemoRequest]
    /// The seed's OGC API Features flow (``ogcPhase(server:)``).
    var ogcPhase: [DemoRequest]
    /// Contract 1.2's feature-table queries: statistics, a top ten, time windows (``tablePhase(server:)``).
    var tablePhase: [DemoRequest]
    /// Contract 1.2's related records: an assessment history, counties of states (``relatedPhase(server:)``).
    var relatedPhase: [DemoRequest]
    var faultPhase: [DemoRequest]
    /// The secured layer behind a 7-second token (``securedPhase(server:)``).
    var securedPhase: SecuredPlan
    /// A short name per layer URL, for the one-line outcomes.
    var labels: [String: String]

    /// The demo's view of the US: the lower 48 states, in degrees.
    static let usExtent = ExtentArgument(xmin: -125, ymin: 24, xmax: -66, ymax: 50, wkid: 4326)
    /// The layer the fault phase makes fail, and the fault: an HTML page with HTTP 403, as a proxy sends.
    static let faultedLayer = SampleLayer.counties
    static let burstTask = "map-view"
    static let burstSize = 5

    static func make(server: SampleFeatureServer) throws -> DemoPlan {
        let dataset = server.dataset
        var labels: [String: String] = [:]
        for layer in SampleLayer.allCases { labels[server.layerURL(layer)] = shortName(layer) }
        for layer in SampleLayer.allCases {
            if let id = SampleFeatureServer.ogcCollectionID(layer) { labels["\(server.ogcURL)/collections/\(id)"] = "OGC \(id)" }
        }
        for collection in DaraaCollection.allCases { labels["\(server.ogcURL)/collections/\(collection.id)"] = "OGC \(collection.id)" }
        labels[server.ogcURL] = "OGC landing page"
        labels[server.securedLayerURL(.parcels)] = "secured parcels"

        var seeds: [DemoRequest] = try NamedQueryCatalog.builtInExamples.map { named in
            let truth = try dataset.groundTruthObjectIDs(.parcels, where: named.clause, envelope: SampleDataset.seedExtent)
            return DemoRequest(
                job: job("seed/\(named.name)", targets: [.arcgis(url: server.layerURL(.parcels))],
                             query: .init(namedWhere: named.name, extent: Query.Extent(seedExtent))),
                expected: .succeeded([ExpectedLayer(url: server.layerURL(.parcels), truth: truth, idsReturned: true)]))
        }
        seeds.append(try usaRequest(server, "usa/pop2000-over-500k", population: 500_000, result: .count, faulted: false))
        seeds.append(DemoRequest(
            job: job("outside/la-county-parcels", targets: [.arcgis(url: Self.realParcelsURL)], query: .init()),
            expected: .rejected(code: "host_not_allowed")))

        var faulted = [try usaRequest(server, "usa/pop2000-over-100k", population: 100_000, result: .ids, faulted: true)]
        faulted += try burst(server)
        return DemoPlan(
            seedPhase: seeds, ogcPhase: try ogcPhase(server: server), tablePhase: try tablePhase(server: server),
            relatedPhase: try relatedPhase(server: server), faultPhase: faulted,
            securedPhase: try securedPhase(server: server), labels: labels)
    }

    /// The seed extent (``SampleDataset/seedExtent``) as a request's `extent`.
    static var seedExtent: ExtentArgument {
        let seed = SampleDataset.seedExtent
        return ExtentArgument(
            xmin: seed.xmin, ymin: seed.ymin, xmax: seed.xmax, ymax: seed.ymax, wkid: seed.spatialReference?.wkid ?? 102_100)
    }

    /// The seed application's real layer: the worker must refuse it, since only 127.0.0.1 is allowed.
    static let realParcelsURL =
        "https://services3.arcgis.com/GVgbJbqm8hXASVYi/arcgis/rest/services/LA_County_Parcels/FeatureServer/0"

    /// `USA/MapServer` with sublayers 0, 2 and 3 (cities, states, counties) and `POP2000 > population`.
    private static func usaRequest(
        _ server: SampleFeatureServer, _ name: String, population: Int, result: Query.ResultKind, faulted: Bool
    ) throws -> DemoRequest {
        let clause = "POP2000 > \(population)"
        // The dataset's own envelope, moved: this target does not depend on FeatureGeometry to name the type.
        var envelope = SampleDataset.seedExtent
        (envelope.xmin, envelope.ymin, envelope.xmax, envelope.ymax) = (usExtent.xmin, usExtent.ymin, usExtent.xmax, usExtent.ymax)
        envelope.spatialReference = .wgs84
        let layers: [ExpectedLayer] = try [SampleLayer.cities, .states, .counties].map { layer in
            let failing = faulted && layer == faultedLayer
            let truth = failing ? nil : try server.dataset.groundTruthObjectIDs(layer, where: clause, envelope: envelope)
            return ExpectedLayer(url: server.layerURL(layer), truth: truth, idsReturned: result == .ids)
        }
        return DemoRequest(
            job: job(
                name, targets: [.arcgis(url: server.serviceURL(.usa), layers: [0, 2, 3])],
                query: .init(where: clause, extent: Query.Extent(usExtent), result: result)),
            expected: faulted ? .partial(layers) : .succeeded(layers))
    }

    /// Five requests on one task in quick succession, as a map panning east sends them: the legacy layer is
    /// slowed down, so each is still running when the next arrives and is superseded by it.
    private static func burst(_ server: SampleFeatureServer) throws -> [DemoRequest] {
        let url = server.layerURL(.legacyParcels)
        return try (1...burstSize).map { index in
            var envelope = SampleDataset.seedExtent
            envelope.xmin += Double(index - 1) * 600
            envelope.xmax += Double(index - 1) * 600
            let id = "\(burstTask)/\(index)"
            let expected: DemoExpectation
            if index < burstSize {
                expected = .superseded(by: "\(burstTask)/\(index + 1)")
            } else {
                let truth = try server.dataset.groundTruthObjectIDs(.legacyParcels, envelope: envelope)
                expected = .succeeded([ExpectedLayer(url: url, truth: truth, idsReturned: true)])
            }
            let extent = ExtentArgument(
                xmin: envelope.xmin, ymin: envelope.ymin, xmax: envelope.xmax, ymax: envelope.ymax,
                wkid: envelope.spatialReference?.wkid ?? 102_100)
            var request = job(id, targets: [.arcgis(url: url)], query: .init(extent: Query.Extent(extent)))
            request.taskId = burstTask
            return DemoRequest(job: request, expected: expected)
        }
    }

    /// A demo job, answered inline: every phase but the stored one checks the ids and features in the result
    /// message, and the demo's worker has a result store whenever moto is installed, where `auto` would move a
    /// large selection (the secured phase's 25,000-parcel downloads) to the store. The stored phase asks
    /// `delivery: store` itself.
    static func job(_ id: String, targets: [QueryJob.Target], query: Query) -> QueryJob {
        var job = QueryJob(requestId: id, timeout: .seconds(30), targets: targets, query: query)
        job.delivery = .inline
        return job
    }

    private static func shortName(_ layer: SampleLayer) -> String {
        switch layer {
        case .parcels: "parcels"
        case .parcelSales: "parcel sales"
        case .legacyParcels: "legacy parcels"
        case .cities: "cities"
        case .highways: "highways"
        case .states: "states"
        case .counties: "counties"
        case .elevation: "elevation"
        case .parcelAssessments: "parcel assessments"
        case .parcelOwners: "parcel owners"
        }
    }
}
