import BenchmarkSupport
import Foundation

/// The requests waiting in the topic before any measured worker starts, published once per benchmark: every
/// run reads them from the first offset in a group of its own.
struct MemoryBacklog {
    var topics: BenchmarkTopics
    var count: Int
    var partitions: Int
    /// The requests' JSON values in all, without Kafka's framing.
    var valueBytes: Int

    /// librdkafka's mock cluster keeps at most about 5 MiB (and 100,000 batches) per partition and drops the
    /// oldest batches beyond it; a partition holds at most this much of the backlog, so nothing is dropped.
    static let bytesPerPartition = 2 << 20

    /// Publishes `count` ids queries for different tasks on a fresh topic of `partitions` partitions (0: enough
    /// for ``bytesPerPartition`` each).
    static func publish(_ count: Int, partitions: Int, layerURL: String, rig: KafkaRig) async throws -> MemoryBacklog {
        let name = "backlog-\(UUID().uuidString.prefix(6))"
        let specs = RequestFactory.specs(count: count, seed: 7)
        let messages = specs.enumerated().map { index, spec in
            let id = "\(name)-\(index)"
            return (key: id, value: RequestFactory.requestJSON(requestId: id, taskId: id, layerURL: layerURL, spec))
        }
        let valueBytes = messages.reduce(0) { $0 + $1.value.utf8.count }
        let framed = KafkaRig.framedBytes(messages)
        let chosen = partitions > 0 ? partitions : max(1, (framed + bytesPerPartition - 1) / bytesPerPartition)
        let topics = try rig.makeTopics(name, requestPartitions: chosen)
        // In slices, so the rig's producer queue (100,000 messages) never refuses one.
        var start = 0
        while start < messages.count {
            let end = min(start + 10_000, messages.count)
            try await rig.publish(Array(messages[start..<end]), topic: topics.requests)
            start = end
        }
        return MemoryBacklog(topics: topics, count: count, partitions: chosen, valueBytes: valueBytes)
    }

    var description: String {
        let perPartition = Double(valueBytes) / Double(partitions) / 1_048_576
        return "\(count) ids queries (\(format(Double(valueBytes) / 1e6, 1)) MB of JSON, \(valueBytes / max(count, 1)) B each) "
            + "published before the worker starts on \(partitions) partitions (\(format(perPartition, 2)) MiB each: "
            + "librdkafka's mock cluster keeps about 5 MiB per partition)"
    }
}
