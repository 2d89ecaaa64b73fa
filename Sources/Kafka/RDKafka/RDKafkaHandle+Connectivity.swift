internal import CRDKafka
import FeatureQuerySupport

extension RDKafkaHandle {
    /// A metadata request for no topic (the broker list only), on a thread of its own because it blocks.
    /// An answer means the cluster is reachable again.
    func probeCluster(timeout: Duration) async -> Bool {
        let timeoutMs = Int32(clamping: timeout.clampedMilliseconds)
        let answered = await KafkaPollThread.call(name: "kafka-probe") {
            var metadata: UnsafePointer<rd_kafka_metadata>?
            let err = rd_kafka_metadata(self.pointer, 0, nil, &metadata, timeoutMs)
            if let metadata { rd_kafka_metadata_destroy(metadata) }
            return err == RD_KAFKA_RESP_ERR_NO_ERROR
        }
        if answered { context.heardFromCluster() }
        return answered
    }

    /// Metadata requests for `topics`, on a thread of its own because they block. librdkafka keeps the answers
    /// in its metadata cache, which a topic handle made later starts from. Returns the topics that answered.
    func loadTopicMetadata(_ topics: [String], timeout: Duration) async -> [String] {
        let timeoutMs = Int32(clamping: timeout.clampedMilliseconds)
        return await KafkaPollThread.call(name: "kafka-metadata") {
            topics.filter { name in
                guard let topic = rd_kafka_topic_new(self.pointer, name, nil) else { return false }
                defer { rd_kafka_topic_destroy(topic) }
                var metadata: UnsafePointer<rd_kafka_metadata>?
                let err = rd_kafka_metadata(self.pointer, 0, topic, &metadata, timeoutMs)
                if let metadata { rd_kafka_metadata_destroy(metadata) }
                return err == RD_KAFKA_RESP_ERR_NO_ERROR
            }
        }
    }

    /// librdkafka's name of the client (`<client.id>#consumer-1`), for telling lines of several clients apart.
    static func name(_ rk: OpaquePointer?) -> String {
        guard let rk, let name = rd_kafka_name(rk) else { return "?" }
        return String(cString: name)
    }
}
