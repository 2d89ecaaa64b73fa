import FeatureQueryClient
import FeatureGeometry
import QueryLanguage
import SampleFeatureServer

/// The secured phase's requests: the parcels layer in the sample server's `Secured` folder,
/// behind a 7-second token that the worker gets with the demo's `token` credential.
struct SecuredPlan: Sendable {
    /// One small request that makes the worker get its first token.
    var firstToken: DemoRequest
    /// The 100,000-feature download, in ``DemoPlan/downloadParts`` requests run at once.
    var download: [DemoRequest]
    /// ``DemoPlan/revokedBurstSize`` requests sent at once after the server revoked every token.
    var revoked: [DemoRequest]

    var all: [DemoRequest] { [firstToken] + download + revoked }
}

extension DemoPlan {
    /// Features the download fetches in all.
    static let downloadFeatures = 100_000
    /// The download is split into this many requests of equal size. A result's parts share its key, so they
    /// land on one partition, and the mock Kafka cluster keeps only the last ~5 MiB of a partition: 100,000
    /// features with only OBJECTID and no geometry are ~8 MB of result (about 75 bytes of GeoJSON and an id
    /// per feature), 25,000 are ~2 MB. The four requestIds hash to four different partitions.
    static let downloadParts = 4
    /// How many requests meet the revoked token at once.
    static let revokedBurstSize = 50
    /// The download's requests may run this long (the worker's default limit is a minute).
    static let downloadTimeoutMs = 240_000

    static func securedPhase(server: SampleFeatureServer) throws -> SecuredPlan {
        let dataset = server.dataset
        let url = server.securedLayerURL(.parcels)
        guard let named = NamedQueryCatalog.builtInExamples.first else {
            throw DemoPlanError(message: "the worker has no built-in named query")
        }
        let seed = SampleDataset.seedExtent
        let firstTruth = try dataset.groundTruthObjectIDs(.parcels, where: named.clause, envelope: seed)
        let firstToken = DemoRequest(
            job: job("secured/first-token", targets: [.arcgis(url: url)],
                         query: .init(namedWhere: named.name, extent: Query.Extent(extentArgument(seed)))),
            expected: .succeeded([ExpectedLayer(url: url, truth: firstTruth, idsReturned: true)]))

        let share = downloadFeatures / downloadParts
        let download: [DemoRequest] = try (1...downloadParts).map { part in
            let clause = "OBJECTID > \((part - 1) * share) AND OBJECTID <= \(part * share)"
            let truth = try dataset.groundTruthObjectIDs(.parcels, where: clause)
            var request = job(
                "secured/download-\(part)of\(downloadParts)", targets: [.arcgis(url: url)],
                query: .init(where: clause, outFields: ["OBJECTID"], returnGeometry: false, result: .features))
            request.timeout = .milliseconds(downloadTimeoutMs)
            return DemoRequest(job: request, expected: .succeeded([ExpectedLayer(url: url, truth: truth, idsReturned: true)]))
        }

        let revoked: [DemoRequest] = try revokedTiles(seed).enumerated().map { index, tile in
            let truth = try dataset.groundTruthObjectIDs(.parcels, envelope: tile)
            let id = "secured/revoked-\(index + 1 < 10 ? "0" : "")\(index + 1)"
            return DemoRequest(
                job: job(id, targets: [.arcgis(url: url)], query: .init(extent: Query.Extent(extentArgument(tile)))),
                expected: .succeeded([ExpectedLayer(url: url, truth: truth, idsReturned: true)]))
        }
        return SecuredPlan(firstToken: firstToken, download: download, revoked: revoked)
    }

    /// The seed extent cut into ``revokedBurstSize`` tiles (10 columns, 5 rows): a map's worth of
    /// different selections.
    private static func revokedTiles(_ extent: Envelope) -> [Envelope] {
        let columns = 10
        let rows = revokedBurstSize / columns
        let width = (extent.xmax - extent.xmin) / Double(columns)
        let height = (extent.ymax - extent.ymin) / Double(rows)
        return (0..<rows).flatMap { row in
            (0..<columns).map { column in
                var tile = extent
                tile.xmin = extent.xmin + Double(column) * width
                tile.xmax = tile.xmin + width
                tile.ymin = extent.ymin + Double(row) * height
                tile.ymax = tile.ymin + height
                return tile
            }
        }
    }

    private static func extentArgument(_ envelope: Envelope) -> ExtentArgument {
        ExtentArgument(
            xmin: envelope.xmin, ymin: envelope.ymin, xmax: envelope.xmax, ymax: envelope.ymax,
            wkid: envelope.spatialReference?.wkid ?? 102_100)
    }
}
