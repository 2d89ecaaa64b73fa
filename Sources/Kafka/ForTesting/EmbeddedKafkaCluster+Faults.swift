// CRDKafka first: with CKafkaShims (whose header includes rdkafka.h too) imported first in this file, the
// module's other files no longer find librdkafka's constants (Swift 6.3.1).
internal import CRDKafka
internal import CKafkaShims
import FeatureQuerySupport

/// Fault injection on the embedded cluster, for this package's tests: brokers going down, protocol errors
/// and delayed responses.
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
