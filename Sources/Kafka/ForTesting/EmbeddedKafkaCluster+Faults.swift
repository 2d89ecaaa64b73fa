// CRDKafka first: with CKafkaShims (whose header includes rdkafka.h too) imported first in this file, the
// module's other files no longer find librdkafka's constants (Swift 6.3.1).
internal import CRDKafka
internal import CKafkaShims
import FeatureQuerySupport

/// Fault injection on the embedded cluster, for this package's tests and `query-worker embedded-kafka
/// --fault-commands`: brokers going down, partition leaders moving, protocol errors and delayed responses.
///
/// Package access, not public: an embedder who wants outages in their own tests drives the `embedded-kafka`
/// process's line commands (``FaultCommand``), which is the documented interface. In process, taking a
/// broker down is a trap for any test process that also spawns children (see ``setBrokerDown(_:)``), so the
/// Swift API stays with the tests that know to run apart.
extension EmbeddedKafkaCluster {
    /// A Kafka protocol request type, for fault injection.
    package struct APIKey: Hashable, Sendable {
        package let rawValue: Int16
        package init(_ rawValue: Int16) { self.rawValue = rawValue }
        package static let produce = APIKey(0)
        package static let fetch = APIKey(1)
        package static let metadata = APIKey(3)
        package static let offsetCommit = APIKey(8)
        package static let joinGroup = APIKey(11)
        package static let heartbeat = APIKey(12)
        package static let initProducerID = APIKey(22)

        /// The request types a fault command may name, by their Kafka protocol names.
        package static let named: [String: APIKey] = [
            "Produce": .produce, "Fetch": .fetch, "ListOffsets": APIKey(2), "Metadata": .metadata,
            "OffsetCommit": .offsetCommit, "OffsetFetch": APIKey(9), "FindCoordinator": APIKey(10),
            "JoinGroup": .joinGroup, "Heartbeat": .heartbeat, "LeaveGroup": APIKey(13), "SyncGroup": APIKey(14),
            "ApiVersions": APIKey(18), "InitProducerId": .initProducerID,
        ]
    }

    /// A Kafka protocol error code, for fault injection.
    package struct ResponseCode: Hashable, Sendable {
        package let rawValue: Int32
        package init(_ rawValue: Int32) { self.rawValue = rawValue }
        package static let notLeaderForPartition = ResponseCode(6)
        package static let requestTimedOut = ResponseCode(7)
        package static let messageTooLarge = ResponseCode(10)
        package static let notEnoughReplicas = ResponseCode(19)
        package static let topicAuthorizationFailed = ResponseCode(29)
    }

    /// Takes a broker down: its connections close and it accepts none until ``setBrokerUp(_:)``.
    ///
    /// librdkafka's mock (2.0.2) closes the broker's listening socket and binds its port again at once, to keep
    /// it, and aborts the whole process when that bind fails. It fails when a child process is being spawned at
    /// that moment: between its clone and its exec the child holds a copy of every descriptor, the listening
    /// socket among them, so the port is still in use. Tests that take brokers down therefore run in a test
    /// process that spawns no children meanwhile (`scripts/test`).
    package func setBrokerDown(_ brokerID: Int32) throws(KafkaError) {
        try check(rd_kafka_mock_broker_set_down(cluster.pointer, brokerID), "setting broker \(brokerID) down")
    }

    package func setBrokerUp(_ brokerID: Int32) throws(KafkaError) {
        try check(rd_kafka_mock_broker_set_up(cluster.pointer, brokerID), "setting broker \(brokerID) up")
    }

    /// The brokers' ids: librdkafka's mock numbers them 1 to the broker count.
    package var brokerIDs: ClosedRange<Int32> { 1...Int32(clamping: brokerCount) }

    /// Moves a partition's leadership to `brokerID` (-1: no leader). Clients learn of it from the old
    /// leader's NOT_LEADER_FOR_PARTITION answers and a metadata refresh, as with a real leader election; the
    /// partition's log is the cluster's, not the broker's, so nothing written is lost by the move.
    ///
    /// librdkafka's mock creates the topic when it does not exist: check the name first.
    package func setPartitionLeader(topic: String, partition: Int32, brokerID: Int32) throws(KafkaError) {
        try check(
            rd_kafka_mock_partition_set_leader(cluster.pointer, topic, partition, brokerID),
            "moving the leader of \(topic)[\(partition)] to broker \(brokerID)")
    }

    /// Delays every response of `brokerID` by `rtt` until set back to zero: a slow network or broker.
    package func setBrokerRoundTrip(_ brokerID: Int32, _ rtt: Duration) throws(KafkaError) {
        try check(
            rd_kafka_mock_broker_set_rtt(cluster.pointer, brokerID, Int32(clamping: rtt.clampedMilliseconds)),
            "setting the round trip of broker \(brokerID)")
    }

    /// Makes the next requests of one type fail with these errors, in order.
    package func pushRequestErrors(_ apiKey: APIKey, _ errors: [ResponseCode]) {
        var codes = errors.map { rd_kafka_resp_err_t(rawValue: $0.rawValue) }
        rd_kafka_mock_push_request_errors_array(cluster.pointer, apiKey.rawValue, codes.count, &codes)
    }

    /// Delays the responses to the next requests of one type that reach `brokerID`, one delay per request
    /// in arrival order, without failing them. The delay counts from when the broker answers, so a response
    /// the broker holds back (a JoinGroup answered when the rebalance completes) leaves that much later than
    /// the others: a test can decide which member of a group hears first.
    package func pushResponseDelays(_ apiKey: APIKey, brokerID: Int32 = 1, _ delays: [Duration]) throws(KafkaError) {
        for delay in delays {
            try check(
                qw_kafka_mock_push_response_delay(
                    UnsafeMutableRawPointer(cluster.pointer), brokerID, apiKey.rawValue, Int32(clamping: delay.clampedMilliseconds)),
                "pushing a response delay")
        }
    }
}
