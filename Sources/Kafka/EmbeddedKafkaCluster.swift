// CRDKafka first: with CKafkaShims (whose header includes rdkafka.h too) imported first in this file, the
// module's other files no longer find librdkafka's constants (Swift 6.3.1).
internal import CRDKafka
internal import CKafkaShims
public import Logging

/// librdkafka's built-in mock cluster: a real Kafka-protocol implementation listening on loopback TCP
/// ports, with consumer groups, idempotent producers and fault injection. It is the worker's default broker
/// for the demo and the tests, and any Kafka client (kcat, aiokafka) can talk to it.
public final class EmbeddedKafkaCluster: Sendable {
    /// A Kafka protocol request type, for fault injection.
    public struct APIKey: Hashable, Sendable {
        public let rawValue: Int16
        public init(_ rawValue: Int16) { self.rawValue = rawValue }
        public static let produce = APIKey(0)
        public static let fetch = APIKey(1)
        public static let metadata = APIKey(3)
        public static let offsetCommit = APIKey(8)
        public static let joinGroup = APIKey(11)
        public static let heartbeat = APIKey(12)
    }

    /// A Kafka protocol error code, for fault injection.
    public struct ResponseCode: Hashable, Sendable {
        public let rawValue: Int32
        public init(_ rawValue: Int32) { self.rawValue = rawValue }
        public static let notLeaderForPartition = ResponseCode(6)
        public static let requestTimedOut = ResponseCode(7)
        public static let messageTooLarge = ResponseCode(10)
        public static let notEnoughReplicas = ResponseCode(19)
        public static let topicAuthorizationFailed = ResponseCode(29)
    }

    private let cluster: MockCluster
    public let brokerCount: Int
    /// The `host:port,...` list clients bootstrap from.
    public let bootstrapServers: String

    /// Starts `brokers` brokers on ephemeral loopback ports.
    public init(brokers: Int = 1, logger: Logger) throws(KafkaError) {
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
    public func createTopic(_ name: String, partitions: Int, replicationFactor: Int = 1) throws(KafkaError) {
        try check(
            rd_kafka_mock_topic_create(cluster.pointer, name, Int32(partitions), Int32(min(replicationFactor, brokerCount))),
            "creating topic \(name)"
        )
    }

    /// Takes a broker down: its connections close and it accepts none until ``setBrokerUp(_:)``.
    public func setBrokerDown(_ brokerID: Int32) throws(KafkaError) {
        try check(rd_kafka_mock_broker_set_down(cluster.pointer, brokerID), "setting broker \(brokerID) down")
    }

    public func setBrokerUp(_ brokerID: Int32) throws(KafkaError) {
        try check(rd_kafka_mock_broker_set_up(cluster.pointer, brokerID), "setting broker \(brokerID) up")
    }

    /// Adds a round-trip delay to a broker's responses.
    public func setRoundTripTime(_ brokerID: Int32, _ rtt: Duration) throws(KafkaError) {
        try check(rd_kafka_mock_broker_set_rtt(cluster.pointer, brokerID, Int32(clamping: rtt.milliseconds)), "setting rtt")
    }

    /// Makes the next requests of one type fail with these errors, in order.
    public func pushRequestErrors(_ apiKey: APIKey, _ errors: [ResponseCode]) {
        var codes = errors.map { rd_kafka_resp_err_t(rawValue: $0.rawValue) }
        rd_kafka_mock_push_request_errors_array(cluster.pointer, apiKey.rawValue, codes.count, &codes)
    }

    /// Delays the responses to the next requests of one type that reach `brokerID`, one delay per request
    /// in arrival order, without failing them. The delay counts from when the broker answers, so a response
    /// the broker holds back (a JoinGroup answered when the rebalance completes) leaves that much later than
    /// the others: a test can decide which member of a group hears first.
    public func pushResponseDelays(_ apiKey: APIKey, brokerID: Int32 = 1, _ delays: [Duration]) throws(KafkaError) {
        for delay in delays {
            try check(
                qw_kafka_mock_push_response_delay(
                    UnsafeMutableRawPointer(cluster.pointer), brokerID, apiKey.rawValue, Int32(clamping: delay.milliseconds)),
                "pushing a response delay")
        }
    }

    /// Makes every request for a topic fail with this error (`nil` clears it).
    public func setTopicError(_ topic: String, _ error: ResponseCode?) {
        rd_kafka_mock_topic_set_error(cluster.pointer, topic, rd_kafka_resp_err_t(rawValue: error?.rawValue ?? 0))
    }

    private func check(_ err: rd_kafka_resp_err_t, _ what: String) throws(KafkaError) {
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError.rdKafka(err, context: what, defaultCode: .embeddedCluster)
        }
    }
}

/// Owns the mock cluster and the client handle it was made with, and destroys the cluster first.
private final class MockCluster: @unchecked Sendable {
    let pointer: OpaquePointer
    let handle: RDKafkaHandle
    init(pointer: OpaquePointer, handle: RDKafkaHandle) {
        self.pointer = pointer
        self.handle = handle
    }
    deinit { rd_kafka_mock_cluster_destroy(pointer) }
}
