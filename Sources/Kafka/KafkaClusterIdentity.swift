internal import CRDKafka
package import Logging
import FeatureQuerySupport

/// Which cluster a client's bootstrap servers lead to, asked before anything is configured that depends on it.
///
/// The worker asks it once at start: librdkafka's embedded mock cluster (``EmbeddedKafkaCluster``) answers an
/// idle fetch only when `fetch.wait.max.ms` has passed, where a real broker answers as soon as data arrives,
/// so the fetch wait that suits one does not suit the other.
package enum KafkaClusterIdentity {
    /// The cluster id the brokers report, or `nil` when none answered within `timeout` (a cluster that is
    /// down, or a broker too old to report one).
    ///
    /// Uses a short-lived client of its own with `client`'s properties (security settings included), on a
    /// thread of its own: librdkafka's call blocks until the metadata arrives.
    package static func clusterID(
        client: KafkaClientConfiguration,
        timeout: Duration,
        logger: Logger
    ) async throws(KafkaError) -> String? {
        let properties = orderedProperties(client.properties, additional: client.additionalProperties)
        let handle = try RDKafkaHandle(kind: .producer, properties: properties, context: RDKafkaCallbackContext(logger: logger))
        let timeoutMs = Int32(clamping: timeout.clampedMilliseconds)
        return await KafkaPollThread.call(name: "kafka-cluster-id") { () -> String? in
            guard let id = rd_kafka_clusterid(handle.pointer, timeoutMs) else { return nil }
            defer { rd_kafka_mem_free(handle.pointer, id) }
            return String(cString: id)
        }
    }
}
