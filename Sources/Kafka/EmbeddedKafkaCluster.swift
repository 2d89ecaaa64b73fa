internal import CRDKafka
package import Logging

/// librdkafka's built-in mock cluster: a real Kafka-protocol implementation listening on loopback TCP
/// ports, with consumer groups and idempotent producers. It is the worker's default broker for the demo and
/// the tests, and any Kafka client (kcat, aiokafka) can talk to it. The tests' fault injection is in
/// `ForTesting/EmbeddedKafkaCluster+Faults.swift`.
package final class EmbeddedKafkaCluster: Sendable {
    let cluster: MockCluster
    let brokerCount: Int
    /// The `host:port,...` list clients bootstrap from.
    package let bootstrapServers: String

    /// Starts `brokers` brokers on ephemeral loopback ports.
    package init(brokers: Int = 1, logger: Logger) throws(KafkaError) {
        guard (1...32).contains(brokers) else {
            throw KafkaError(code: .embeddedCluster, message: "broker count must be 1...32, got \(brokers)")
        }
        // A client handle that only carries the mock cluster (and its logging); it never connects anywhere.
        let handle = try RDKafkaHandle(kind: .producer, properties: [("log_level", "3")], context: RDKafkaCallbackContext(logger: logger))
        guard let mock = rd_kafka_mock_cluster_new(handle.pointer, Int32(brokers)) else {
            throw KafkaError(code: .embeddedCluster, message: "rd_kafka_mock_cluster_new failed")
        }
        cluster = MockCluster(pointer: mock, handle: handle)
        brokerCount = brokers
        bootstrapServers = rd_kafka_mock_cluster_bootstraps(mock).map { String(cString: $0) } ?? ""
    }

    /// Creates a topic (replication factor at most the broker count).
    ///
    /// The mock cluster keeps only about the last 5 MiB of each partition and drops older data silently:
    /// give a topic enough partitions for what a test or demo writes before it reads from the start.
    package func createTopic(_ name: String, partitions: Int, replicationFactor: Int = 1) throws(KafkaError) {
        try check(
            rd_kafka_mock_topic_create(cluster.pointer, name, Int32(partitions), Int32(min(replicationFactor, brokerCount))),
            "creating topic \(name)"
        )
    }

    /// Whether a cluster id (``KafkaClusterIdentity/clusterID(client:timeout:logger:)``) is an embedded
    /// cluster's: librdkafka names every mock cluster `mockCluster` and a hex number (`rd_kafka_mock_cluster_new`
    /// in rdkafka_mock.c, 2.0.2 and later), a name no real Kafka cluster gets (theirs are base64 UUIDs).
    package static func isEmbedded(clusterID: String) -> Bool {
        clusterID.hasPrefix("mockCluster")
    }

    /// Whether an embedded cluster's id is the transactional build's (`scripts/build-transactional-kafka`: its
    /// patched mock names clusters `mockClusterTxn…`), which keeps transactional offset commits and hides
    /// aborted transactions from read_committed readers. The stock mock accepts the transactional requests but
    /// does neither: exactly-once publishing against it answers every request again after a restart.
    package static func keepsTransactions(clusterID: String) -> Bool {
        clusterID.hasPrefix("mockClusterTxn")
    }

    /// How long a consumer of an embedded cluster should let an idle fetch wait (`fetch.wait.max.ms`).
    ///
    /// librdkafka's mock broker (2.0.2) decides a fetch's answer when the request arrives: with no data it
    /// holds the empty answer for the whole wait, and data produced meanwhile waits for the next fetch. A
    /// real broker answers as soon as data arrives, so there librdkafka's 500 ms costs no latency; here it
    /// is up to 500 ms per hop. 2 ms keeps a hop's wait at about 1 ms on average for about 500 idle
    /// fetches a second per consumer (a few per cent of one core on loopback); at 5 ms, request → outcome above
    /// the server's own time measured 5.4 ms at the median, just over the 5 ms target.
    package static let fetchWaitMax: Duration = .milliseconds(2)

    func check(_ err: rd_kafka_resp_err_t, _ what: String) throws(KafkaError) {
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError.rdKafka(err, context: what, defaultCode: .embeddedCluster)
        }
    }
}

/// Owns the mock cluster and the client handle it was made with, and destroys the cluster first.
final class MockCluster: @unchecked Sendable {
    let pointer: OpaquePointer
    let handle: RDKafkaHandle
    init(pointer: OpaquePointer, handle: RDKafkaHandle) {
        self.pointer = pointer
        self.handle = handle
    }
    deinit { rd_kafka_mock_cluster_destroy(pointer) }
}
