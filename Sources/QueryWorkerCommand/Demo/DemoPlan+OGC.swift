import FeatureQueryClient
import FeatureGeometry
import QueryLanguage
import SampleFeatureServer

/// The seed's OGC API Features flow, against the sample server's OGC face: browse the landing page, load one
/// Daraa collection with `maxFeatures: 1000`, a where clause the server filters and one only the worker can
/// (CQL2 has no CHAR_LENGTH), and a seed clause asked of the ArcGIS layer and of the OGC collection in one
/// request, which must select the same parcels.
extension DemoPlan {
    /// The Daraa collection the demo loads and filters: curves, the largest one.
    static let daraaCollection = DaraaCollection.allCases.max { $0.featureCount < $1.featureCount } ?? .allCases[0]
    /// The seed application's per-request limit for OGC collections.
    static let ogcMaxFeatures = 1_000

    static func ogcPhase(server: SampleFeatureServer) throws -> [DemoRequest] {
        let dataset = server.dataset
        let landing = server.ogcURL
        let daraa = daraaCollection
        let daraaURL = "\(landing)/collections/\(daraa.id)"
        let ogcTarget = QueryJob.Target.ogc(landingPage: landing, collection: daraa.id)

        let collectionIDs = SampleLayer.allCases.compactMap(SampleFeatureServer.ogcCollectionID)
            + DaraaCollection.allCases.map(\.id)
        let browse = DemoRequest(
            job: job("ogc/browse", targets: [.ogc(landingPage: landing, collection: nil)], query: .init(result: .catalog)),
            expected: .catalog(url: landing, ids: collectionIDs))

        let all = try dataset.groundTruthObjectIDs(daraa)
        let load = DemoRequest(
            job: job("ogc/load-1000", targets: [ogcTarget], query: .init(maxFeatures: ogcMaxFeatures, result: .features)),
            expected: .succeeded([ExpectedLayer(
                url: daraaURL, truth: all, idsReturned: true, filteredBy: nil, maxFeatures: ogcMaxFeatures)]))

        let named = "ZI005_FNA <> 'No Information' AND FCSUBTYPE <> -999999"
        let serverSide = DemoRequest(
            job: job("ogc/server-filtered", targets: [ogcTarget], query: .init(where: named)),
            expected: .succeeded([ExpectedLayer(
                url: daraaURL, truth: try dataset.groundTruthObjectIDs(daraa, where: named), idsReturned: true,
                filteredBy: "server")]))

        let lengthy = "CHAR_LENGTH(ZI005_FNA) > 12"
        let clientSide = DemoRequest(
            job: job("ogc/client-filtered", targets: [ogcTarget], query: .init(where: lengthy)),
            expected: .succeeded([ExpectedLayer(
                url: daraaURL, truth: try dataset.groundTruthObjectIDs(daraa, where: lengthy), idsReturned: true,
                filteredBy: "client")]))

        return [browse, load, serverSide, clientSide, try sameSelection(server)]
    }

    /// The first seed clause over the seed extent, asked of the ArcGIS layer and of the OGC collection of the
    /// same parcels in one request: both entries must hold the ground truth's ids.
    private static func sameSelection(_ server: SampleFeatureServer) throws -> DemoRequest {
        guard let named = NamedQueryCatalog.builtInExamples.first, let collection = SampleFeatureServer.ogcCollectionID(.parcels) else {
            throw DemoPlanError(message: "the sample server has no seed clause or no parcels collection")
        }
        let truth = try server.dataset.groundTruthObjectIDs(.parcels, where: named.clause, envelope: SampleDataset.seedExtent)
        let seed = SampleDataset.seedExtent
        let extent = ExtentArgument(
            xmin: seed.xmin, ymin: seed.ymin, xmax: seed.xmax, ymax: seed.ymax, wkid: seed.spatialReference?.wkid ?? 102_100)
        let targets: [QueryJob.Target] = [
            .arcgis(url: server.layerURL(.parcels)),
            .ogc(landingPage: server.ogcURL, collection: collection),
        ]
        return DemoRequest(
            job: job("ogc/same-as-arcgis", targets: targets,
                         query: .init(namedWhere: named.name, extent: Query.Extent(extent))),
            expected: .succeeded([
                ExpectedLayer(url: server.layerURL(.parcels), truth: truth, idsReturned: true),
                ExpectedLayer(url: "\(server.ogcURL)/collections/\(collection)", truth: truth, idsReturned: true, filteredBy: "server"),
            ]))
    }
}

/// The demo's plan could not be made from the sample server's data.
struct DemoPlanError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
