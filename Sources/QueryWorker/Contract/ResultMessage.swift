import FeatureService
import Kafka

/// The result of a request, as published on the results topic: one entry per queried layer.
///
/// Encode it with ``split(maxBytes:)``, which gives one message when the result fits and ordered parts when
/// it does not (the rule is in docs/contract/README.md). Every part carries the same ``key`` and
/// ``headers``.
struct ResultMessage: Sendable {
    /// `succeeded` when every layer did, `partial` when some failed.
    enum Status: String, Sendable, Hashable {
        case succeeded
        case partial
    }

    var requestId: String
    var taskId: String
    /// The layers in the order of the request's targets and their sublayers. URLs must be unique: a layer's
    /// URL is how a consumer joins its slices across parts.
    var layers: [LayerResult]
    /// When the worker received the request, in milliseconds since the epoch.
    var receivedAt: Int64
    /// When the result was complete, in milliseconds since the epoch; the same in every part.
    var finishedAt: Int64
    /// The worker's id.
    var worker: String

    /// A result. For a request that joined another's run, build one per request: same layers, its own ids
    /// and receive time.
    init(requestId: String, taskId: String, layers: [LayerResult], receivedAt: Int64, finishedAt: Int64, worker: String) {
        self.requestId = requestId
        self.taskId = taskId
        self.layers = layers
        self.receivedAt = receivedAt
        self.finishedAt = finishedAt
        self.worker = worker
    }

    /// `partial` when any layer failed. (When every layer failed, publish an ``ErrorMessage`` with status
    /// `failed` and ``ContractError/allLayersFailed(_:)`` instead.)
    var status: Status {
        layers.contains { if case .failed = $0.outcome { true } else { false } } ? .partial : .succeeded
    }

    /// Whether every layer failed (and there is at least one): the outcome is then an error, not a result.
    var allLayersFailed: Bool {
        !layers.isEmpty && layers.allSatisfy { if case .failed = $0.outcome { true } else { false } }
    }

    /// `finishedAt - receivedAt`, never negative.
    var durationMs: Int64 { max(0, finishedAt &- receivedAt) }

    /// The message key: the taskId, so the outcome lands on the partition of the task's requests' key.
    var key: [UInt8] { Array(taskId.utf8) }

    /// `request-id` and `task-id`, so consumers can route without parsing the value.
    var headers: [KafkaHeader] {
        [KafkaHeader(key: "request-id", string: requestId), KafkaHeader(key: "task-id", string: taskId)]
    }

    /// The messages to publish on `topic`: the parts of ``split(maxBytes:)``, each with the key and headers.
    func producerMessages(topic: String, maxBytes: Int) throws(ContractError) -> [KafkaProducerMessage] {
        let key = self.key
        let headers = self.headers
        return try split(maxBytes: maxBytes).map { KafkaProducerMessage(topic: topic, key: key, value: $0, headers: headers) }
    }
}

/// One layer's entry in a result: what it selected, or why it failed.
struct LayerResult: Sendable {
    /// What a succeeded layer returns, by the request's `result` kind (`countOnly`, `objectIds`, `features`):
    /// the seam's enum, taken over as the engine gave it.
    typealias Selection = LayerSelection

    /// The layer's outcome.
    enum Outcome: Sendable {
        /// The query ran: `count` features match (as the service counted them); `complete` is false when the
        /// selection holds fewer (cut by `maxFeatures` or by the result budget, or rows lost while paging).
        case succeeded(count: Int, complete: Bool, selection: Selection)
        /// The layer could not be queried.
        case failed(ContractError)
    }

    /// The layer URL (normalised: no query string, no trailing slash); unique within a result.
    var url: String
    var layerId: Int?
    /// The layer's name, when its metadata was read.
    var name: String?
    /// The object-id field, when the layer's metadata was read.
    var objectIdField: String?
    /// The OGC collection id; `nil` for ArcGIS layers.
    var collection: String?
    /// Where the filter ran (OGC collections).
    var filteredBy: FilterSite?
    /// Why the selection is incomplete, when the engine knows.
    var incompleteReason: IncompleteReason?
    var outcome: Outcome

    init(
        url: String, layerId: Int? = nil, name: String? = nil, objectIdField: String? = nil, collection: String? = nil,
        filteredBy: FilterSite? = nil, incompleteReason: IncompleteReason? = nil, outcome: Outcome
    ) {
        self.url = url
        self.collection = collection
        self.filteredBy = filteredBy
        self.incompleteReason = incompleteReason
        self.layerId = layerId
        self.name = name
        self.objectIdField = objectIdField
        self.outcome = outcome
    }

    /// The entry for one layer's outcome at the feature-service seam.
    init(_ outcome: ServiceLayerOutcome) {
        switch outcome.result {
        case .failure(let error):
            self.init(url: outcome.url, outcome: .failed(ContractError(error)))
        case .success(let result):
            self.init(
                url: result.url, layerId: result.layerId, name: result.name, objectIdField: result.objectIdField,
                collection: result.collection, filteredBy: result.filteredBy, incompleteReason: result.incompleteReason,
                outcome: .succeeded(count: result.count, complete: result.isComplete, selection: result.selection))
        }
    }
}
