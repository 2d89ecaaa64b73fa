import ArcGISEngine
import BenchmarkSupport
import CurlHTTP
import Logging
import SampleFeatureServer

/// The exact query requests the engine sends for a list of queries, captured from an in-process sample
/// server, so that wrk replays what the worker sends instead of a hand-made imitation.
///
/// An ids query is two HTTP requests, sent at once: `returnIdsOnly=true` and `returnCountOnly=true` (the
/// engine's completeness check). Their URLs depend on the query and the layer's metadata, not on the data,
/// so a small dataset serves.
enum QueryURLCapture {
    /// One query's two requests, as paths with their query strings (GET).
    struct Pair: Sendable {
        var ids: String
        var count: String
    }

    /// Runs each query through a fresh engine against a fresh in-process server and returns the pairs, in
    /// the order of `specs`.
    static func capture(_ specs: [QuerySpec], logger: Logger) async throws -> [Pair] {
        let dataset = try SampleDataset.shared(parcelCount: 20_000, seed: 1)
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 20_000, seed: 1, recentRequestLimit: 64),
            dataset: dataset, logger: logger)
        let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: logger)
        let engine = ArcGISEngine(httpClient: client, logger: logger)
        let layer = server.layerURL(.parcels)
        var pairs: [Pair] = []
        do {
            for spec in specs {
                server.resetStatistics()
                _ = try await engine.query(layer: layer, try RequestFactory.featureQuery(spec))
                pairs.append(try pair(from: server.statistics.recentQueries(.parcels)))
            }
        } catch {
            await client.shutdown()
            await server.shutdown()
            throw error
        }
        await client.shutdown()
        await server.shutdown()
        return pairs
    }

    /// The ids and count requests among one query's recorded requests.
    private static func pair(from records: [RecordedRequest]) throws -> Pair {
        var ids: String?
        var count: String?
        for record in records {
            guard record.method == "GET" else {
                throw BenchmarkError("the engine sent a \(record.method) query; wrk replays GET requests only")
            }
            let query = record.parameters.map { "\(HTTPRequest.formEncode($0.name))=\(HTTPRequest.formEncode($0.value))" }
            let url = record.path + "?" + query.joined(separator: "&")
            if record.parameter("returnIdsOnly") == "true" { ids = url }
            if record.parameter("returnCountOnly") == "true" { count = url }
        }
        guard let ids, let count, records.count == 2 else {
            throw BenchmarkError("expected one returnIdsOnly and one returnCountOnly request, the server saw \(records.count): \(records.map(\.parameters))")
        }
        return Pair(ids: ids, count: count)
    }
}
