import FeatureService

extension ArcGISEngine {
    /// When the targets stand for more layers than ``ArcGISEngineConfiguration/maxLayersPerQuery``: one
    /// failed outcome per target, all with ``FeatureServiceError/Code/tooManyLayers``, so the query as a whole fails
    /// before any layer is queried. `nil` when there is no bound or the layers fit.
    ///
    /// A caller can count layer URLs and `layers` lists itself; only a whole service's layer list needs the
    /// service metadata, which is read here and stays cached for the query that follows. A service whose list
    /// cannot be read counts one layer: the query then reports its own error.
    /// Whether ``refusalOverLayerLimit(_:credential:)`` may refuse `targets`: false when there is no bound, or
    /// when every target's layers are counted without metadata and fit (the usual request: one layer URL),
    /// so the check costs no `async` call then.
    func mayExceedLayerLimit(_ targets: [ArcGISTarget]) -> Bool {
        guard let limit = configuration.maxLayersPerQuery else { return false }
        var total = 0
        for target in targets {
            if let ids = target.layers {
                total += ids.count
            } else if let parsed = try? parsedURLs.layerURL(target.url), parsed.layerId == nil {
                return true
            } else {
                total += 1
            }
        }
        return total > limit
    }

    func refusalOverLayerLimit(_ targets: [ArcGISTarget], credential: String? = nil) async -> [ServiceLayerOutcome]? {
        guard let limit = configuration.maxLayersPerQuery else { return nil }
        var total = 0
        for target in targets {
            if let ids = target.layers {
                total += ids.count
            } else if let parsed = try? parsedURLs.layerURL(target.url), parsed.layerId == nil {
                total += (try? await layers(of: target, credential: credential).count) ?? 1
            } else {
                total += 1
            }
        }
        guard total > limit else { return nil }
        return targets.map { target in
            let url = (try? LayerURL(parsing: target.url).url) ?? target.url
            let error = FeatureServiceError(
                .tooManyLayers,
                "the targets stand for \(total) layers once services are expanded into their feature layers; at most "
                    + "\(limit) are queried for one request (name fewer layers with `layers`, or split the request)",
                layer: url)
            return ServiceLayerOutcome(url: url, result: .failure(error))
        }
    }
}
