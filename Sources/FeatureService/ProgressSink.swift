/// Hears of a request's pages as the engines read them: how the worker learns a long request's progress
/// without the engines knowing about Kafka, events or throttling.
///
/// Engines call it from their page loops, synchronously and possibly from several tasks at once, so a
/// conformer must be cheap and must not block (the worker's counts under a lock and hands the publishing to a
/// task). A request that asked for no progress has no sink (``ResultBudget/progress`` is `nil`): the engines
/// then pay one optional check per page, no allocation.
package protocol ProgressSink: Sendable {
    /// One page of `layer` was read: `features` ids, features or rows arrived with it (before deduplication),
    /// and `expected` is the layer's total when the server said it (a count, `numberMatched`).
    func pageRead(_ layer: ProgressLayer, features: Int, expected: Int?)
    /// The engine has finished with `layer`: no further pages of it come.
    func layerFinished(_ layer: ProgressLayer)
}

/// Which layer a progress report is about, named as the result names it: the layer URL with the ArcGIS layer
/// id, or the collection URL with the OGC collection id.
package struct ProgressLayer: Sendable, Hashable {
    package var url: String
    package var layerId: Int?
    package var collection: String?

    package init(url: String, layerId: Int? = nil, collection: String? = nil) {
        self.url = url
        self.layerId = layerId
        self.collection = collection
    }
}

/// A sink bound to one layer, made once per layer so that a page's report passes no layer description.
package struct LayerProgress: Sendable {
    package let sink: any ProgressSink
    package let layer: ProgressLayer

    package init(sink: any ProgressSink, layer: ProgressLayer) {
        self.sink = sink
        self.layer = layer
    }

    package func pageRead(features: Int, expected: Int? = nil) {
        sink.pageRead(layer, features: features, expected: expected)
    }

    package func finished() { sink.layerFinished(layer) }
}

extension ResultBudget {
    /// The progress of `layer` when the request asked for progress; `nil` (nothing made) when it did not.
    package func progress(of layer: @autoclosure () -> ProgressLayer) -> LayerProgress? {
        progress.map { LayerProgress(sink: $0, layer: layer()) }
    }
}
