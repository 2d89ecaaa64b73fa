import FeatureService
import Kafka
import RequestContract

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
    var layers: [ServiceLayerOutcome] {
        didSet { groupedItems = layers.map(GroupedItems.of) }
    }
    /// How each layer's related records or attachments count as items of parts (``GroupedItems``), worked out
    /// once per result: planning asks for every item's size.
    private(set) var groupedItems: [GroupedItems?]
    /// When the worker received the request, in milliseconds since the epoch.
    var receivedAt: Int64
    /// When the result was complete, in milliseconds since the epoch; the same in every part.
    var finishedAt: Int64
    /// The worker's id.
    var worker: String

    /// A result. For a request that joined another's run, build one per request: same layers, its own ids
    /// and receive time.
    init(requestId: String, taskId: String, layers: [ServiceLayerOutcome], receivedAt: Int64, finishedAt: Int64, worker: String) {
        self.requestId = requestId
        self.taskId = taskId
        self.layers = layers
        self.groupedItems = layers.map(GroupedItems.of)
        self.receivedAt = receivedAt
        self.finishedAt = finishedAt
        self.worker = worker
    }

    /// `partial` when any layer failed. (When every layer failed, publish an ``ErrorMessage`` with status
    /// `failed` and ``ContractError/allLayersFailed(_:)`` instead.)
    var status: Status {
        layers.contains { $0.answer == nil } ? .partial : .succeeded
    }

    /// Whether every layer failed (and there is at least one): the outcome is then an error, not a result.
    var allLayersFailed: Bool {
        !layers.isEmpty && layers.allSatisfy { $0.answer == nil }
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

extension ServiceLayerOutcome {
    /// The layer's answer when it has one: a result carries each layer's outcome as the engine gave it, and
    /// reads it through this (a failure's error is written as the contract's ``ContractError``).
    var answer: ServiceLayerResult? {
        if case .success(let result) = result { return result }
        return nil
    }

    /// The layer's error in the contract's words, when it failed.
    var contractError: ContractError? {
        if case .failure(let error) = result { return ContractError(error) }
        return nil
    }

    /// The layer's count for logs; 0 for a failed layer.
    var reportedCount: Int { answer?.count ?? 0 }
}
