import FeatureQuerySupport
import FeatureService
import Kafka

/// One progress event of the contract (`progress.schema.json`): how far a request that asked for progress has
/// come, per layer. Advisory: it may be lost, and it never replaces the request's outcome.
///
/// Named as the outcomes name the same things (`requestId`, `taskId`, `worker`, a layer's `url`, `layerId` or
/// `collection`) and kept small: counts only, never ids or features.
struct ProgressEvent: Sendable, Equatable {
    /// One layer's progress so far.
    struct Layer: Sendable, Equatable {
        var url: String
        var layerId: Int?
        var collection: String?
        /// Pages read (ids, features, records, related or statistics pages: every response that carried rows).
        var pages = 0
        /// Ids, features or rows received so far, as they arrived (duplicates not yet removed).
        var features = 0
        /// The total the server announced (an ArcGIS count, OGC `numberMatched`); `nil` when it said none.
        var expected: Int?
        /// Whether the engine has finished with the layer.
        var done = false

        init(_ layer: ProgressLayer) {
            url = layer.url
            layerId = layer.layerId
            collection = layer.collection
        }
    }

    var requestId: String
    var taskId: String
    var worker: String
    /// When the event was made, in milliseconds since the epoch.
    var at: Int64
    /// Milliseconds since the run started.
    var elapsedMs: Int64
    var layers: [Layer]

    /// The message key: the taskId, as outcomes are keyed, so a task's events share its outcomes' partition.
    var key: [UInt8] { Array(taskId.utf8) }

    /// `request-id` and `task-id`, as outcomes carry them.
    var headers: [KafkaHeader] {
        [KafkaHeader(key: "request-id", string: requestId), KafkaHeader(key: "task-id", string: taskId)]
    }

    /// The message to publish on `topic`.
    func producerMessage(topic: String) -> KafkaProducerMessage {
        KafkaProducerMessage(topic: topic, key: key, value: encoded(), headers: headers)
    }

    /// The message value: JSON, members in the order of the schema.
    func encoded() -> [UInt8] {
        var writer = JSONWriter(capacity: 192 + layers.count * 160)
        writer.raw("{")
        writer.key("kind")
        writer.string("progress")
        writer.comma()
        writer.key("requestId")
        writer.string(requestId)
        writer.comma()
        writer.key("taskId")
        writer.string(taskId)
        writer.comma()
        writer.key("worker")
        writer.string(worker)
        writer.comma()
        writer.key("at")
        writer.timestamp(milliseconds: at)
        writer.comma()
        writer.key("elapsedMs")
        writer.rawText(String(max(0, elapsedMs)))
        writer.comma()
        writer.key("layers")
        writer.raw("[")
        for (index, layer) in layers.enumerated() {
            if index > 0 { writer.comma() }
            layer.write(to: &writer)
        }
        writer.raw("]}")
        return writer.bytes
    }
}

extension ProgressEvent.Layer {
    func write(to writer: inout JSONWriter) {
        writer.raw("{")
        writer.key("url")
        writer.string(url)
        if let layerId {
            writer.comma()
            writer.key("layerId")
            writer.rawText(String(layerId))
        }
        if let collection {
            writer.comma()
            writer.key("collection")
            writer.string(collection)
        }
        writer.comma()
        writer.key("pages")
        writer.rawText(String(pages))
        writer.comma()
        writer.key("features")
        writer.rawText(String(features))
        if let expected {
            writer.comma()
            writer.key("expected")
            writer.rawText(String(expected))
        }
        writer.comma()
        writer.key("done")
        writer.bool(done)
        writer.raw("}")
    }
}
