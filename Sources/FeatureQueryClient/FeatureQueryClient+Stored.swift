public import Foundation

extension FeatureQueryClient {
    /// Each feature (or id) of `layer`'s stored result as it arrives (``StoredResultReader/items(of:)``), checked
    /// against the location's size and SHA-256 by the end of the sequence. A layer without a
    /// ``QueryOutcome/LayerResult/location`` gives a sequence that fails with ``FeatureQueryError/Code/notStored``.
    public func storedFeatures(of layer: QueryOutcome.LayerResult) -> StoredItems {
        guard let location = layer.location else {
            return StoredItems(
                reader: storedResults, location: nil,
                failure: FeatureQueryError(.notStored, "layer \(layer.url) has no stored result (its features or ids are in the outcome)"))
        }
        return storedResults.items(of: location)
    }

    /// Writes the stored result at `location`, decompressed and verified, to `fileURL`
    /// (``StoredResultReader/download(_:to:)``).
    @concurrent public func downloadStored(_ location: StoredResultLocation, to fileURL: URL) async throws(FeatureQueryError) {
        try await storedResults.download(location, to: fileURL)
    }

    /// `outcome` with every stored layer's features or ids fetched, verified and put where an inline layer has
    /// them (``StoredResultReader/resolving(_:maxBytes:)``): for results whose layers each fit in `maxBytes`.
    @concurrent public func resolvingStoredLayers(of outcome: QueryOutcome, maxBytes: Int = 256 << 20) async throws(FeatureQueryError) -> QueryOutcome {
        var resolved = outcome
        for index in resolved.layers.indices where resolved.layers[index].location != nil {
            resolved.layers[index] = try await storedResults.resolving(resolved.layers[index], maxBytes: maxBytes)
        }
        return resolved
    }
}
