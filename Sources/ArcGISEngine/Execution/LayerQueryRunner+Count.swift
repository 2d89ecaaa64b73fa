import EngineExecution
import FeatureService

extension LayerQueryRunner {
    /// A count query: its one `returnCountOnly` request, sent without a runner.
    ///
    /// The runner exists for queries of several requests (ids and their count, pages of features) that share
    /// its state; a count has none to share. Re-measured on 2026-12-05 (docs/performance/README.md): through
    /// a runner, releasing it alone took 0.7% of a count query's CPU samples. The result is the one ``run()``
    /// gives.
    static func count(
        _ query: ServiceQuery, clause: CheckedClause, layer: LayerMetadata, origin: String, session: ArcGISSession
    ) async throws -> ServiceLayerResult {
        let parameters = try QueryParameters.countOnly(query, clause: clause, layer: layer)
        let counter = RequestCounter()
        let url = layer.url
        let count = try await session.fetch(
            layer.queryEndpoint, origin: origin, parameters: parameters, layer: url, counter: counter
        ) { body throws(FeatureServiceError) in
            try ArcGISResponse.count(body, layer: url)
        }
        return ServiceLayerResult(
            url: url, layerId: layer.id, name: layer.name, objectIdField: layer.objectIdField, count: count,
            isComplete: true, selection: .countOnly, requests: counter.requestCount, retries: counter.retryCount)
    }
}
