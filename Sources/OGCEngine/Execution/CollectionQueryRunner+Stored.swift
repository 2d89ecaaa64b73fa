import EngineExecution
import FeatureService

/// A collection's selection through the request's result store (issue 31): what the collector keeps (after the
/// re-check and the id deduplication) goes to ``StoredLayerStream`` page by page.
extension CollectionQueryRunner {
    /// After a page: hands the features (or ids) the collector newly kept, from `start` of what it holds, to
    /// the stream; once the stream writes to the store, the collector holds nothing more.
    func absorb(
        _ collector: inout CheckedItemCollector, from start: Int, stream: inout StoredLayerStream
    ) async throws(FeatureServiceError) {
        guard stream.hasStore else { return }
        try await stream.absorb(collector.items(from: start)) { collector.stopHolding() }
        if stream.isStreaming { collector.dropHeld() }
    }

    /// A selection the worker computed whole (an order): stored at the end when the store takes every layer or
    /// it passes the threshold; else the result as it is.
    func storedWhole(_ result: ServiceLayerResult, stream: inout StoredLayerStream) async throws(FeatureServiceError) -> ServiceLayerResult {
        guard stream.hasStore else { return result }
        var result = result
        switch result.selection {
        case .features(let features):
            let bytes = StoredLayerStream.bytes(of: features.json)
            if let stored = try await stream.storeAll(features.json, bytes: bytes, encode: { $0 }) { result.selection = .stored(stored) }
        case .featureIds(let ids):
            let items = ids.map(CheckedItemCollector.json)
            let bytes = StoredLayerStream.bytes(of: items)
            if let stored = try await stream.storeAll(items, bytes: bytes, encode: { $0 }) { result.selection = .stored(stored) }
        default:
            break
        }
        return result
    }
}
