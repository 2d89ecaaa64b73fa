internal import CRDKafka

/// An error from the Kafka bridge.
///
/// A struct with an extensible ``Code`` rather than an enum, so that new codes can be added without
/// breaking callers' `switch` statements, in the style of swift-kafka-client's `KafkaError`. The flags tell a
/// caller what to do: retry a retryable error, stop the client on a fatal one. Callers match codes; only this
/// module mints errors and codes.
package struct KafkaError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a category a caller can branch on.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// A configuration property is unknown or has an invalid value.
        package static let invalidConfiguration = Code("invalid_configuration")
        /// librdkafka could not create a client.
        package static let clientCreation = Code("client_creation")
        /// A message could not be delivered to the cluster.
        package static let delivery = Code("delivery")
        /// The message is larger than the producer or broker allows.
        package static let messageTooLarge = Code("message_too_large")
        /// The operation did not finish in time.
        package static let timeout = Code("timeout")
        /// The caller's task was cancelled before the message was queued.
        package static let cancelled = Code("cancelled")
        /// The client is shutting down or has shut down.
        package static let shutdown = Code("shutdown")
        /// Subscribing, assigning or pausing partitions failed.
        package static let partition = Code("partition")
        /// Storing or committing offsets failed.
        package static let offset = Code("offset")
        /// The cluster or a broker could not be reached.
        package static let transport = Code("transport")
        /// librdkafka raised a fatal error: the client can no longer be used.
        package static let fatal = Code("fatal")
        /// A transaction could not be begun, committed or aborted (exactly-once publishing).
        package static let transaction = Code("transaction")
        /// The embedded (mock) cluster refused an operation.
        package static let embeddedCluster = Code("embedded_cluster")
        /// Any other librdkafka error.
        package static let underlying = Code("underlying")
    }

    package var code: Code
    package var message: String
    /// The client cannot continue after this error.
    package var isFatal: Bool
    /// Trying the same operation again may succeed.
    package var isRetryable: Bool
    /// librdkafka's `rd_kafka_resp_err_t`, when the error came from librdkafka.
    package var rdKafkaCode: Int32?
    /// librdkafka's name for ``rdKafkaCode`` (for example `MSG_SIZE_TOO_LARGE`).
    package var rdKafkaName: String?

    package init(
        code: Code,
        message: String,
        isFatal: Bool = false,
        isRetryable: Bool = false,
        rdKafkaCode: Int32? = nil,
        rdKafkaName: String? = nil
    ) {
        self.code = code
        self.message = message
        self.isFatal = isFatal
        self.isRetryable = isRetryable
        self.rdKafkaCode = rdKafkaCode
        self.rdKafkaName = rdKafkaName
    }

    package var description: String {
        var text = "KafkaError(\(code)): \(message)"
        if let rdKafkaName { text += " [\(rdKafkaName)]" }
        return text
    }
}

extension KafkaError {
    /// Maps a librdkafka response code to a typed error.
    static func rdKafka(_ err: rd_kafka_resp_err_t, context: String, defaultCode: Code = .underlying) -> KafkaError {
        let name = rd_kafka_err2name(err).map { String(cString: $0) } ?? "UNKNOWN"
        let text = rd_kafka_err2str(err).map { String(cString: $0) } ?? "unknown error"
        let code: Code
        switch err {
        case RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE:
            code = .messageTooLarge
        case RD_KAFKA_RESP_ERR__MSG_TIMED_OUT, RD_KAFKA_RESP_ERR__TIMED_OUT, RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT,
            RD_KAFKA_RESP_ERR__TIMED_OUT_QUEUE:
            code = .timeout
        case RD_KAFKA_RESP_ERR__PURGE_QUEUE, RD_KAFKA_RESP_ERR__PURGE_INFLIGHT, RD_KAFKA_RESP_ERR__DESTROY:
            code = .shutdown
        case RD_KAFKA_RESP_ERR__TRANSPORT, RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN, RD_KAFKA_RESP_ERR__RESOLVE:
            code = .transport
        case RD_KAFKA_RESP_ERR__FATAL:
            code = .fatal
        default:
            code = defaultCode
        }
        return KafkaError(
            code: code,
            message: "\(context): \(text)",
            isFatal: err == RD_KAFKA_RESP_ERR__FATAL,
            isRetryable: Self.retryable.contains(Int32(err.rawValue)),
            rdKafkaCode: Int32(err.rawValue),
            rdKafkaName: name
        )
    }

    /// Response codes that librdkafka or the Kafka protocol mark as transient.
    private static let retryableCodes: [rd_kafka_resp_err_t] = [
        RD_KAFKA_RESP_ERR__TRANSPORT, RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN, RD_KAFKA_RESP_ERR__MSG_TIMED_OUT,
        RD_KAFKA_RESP_ERR__TIMED_OUT, RD_KAFKA_RESP_ERR__TIMED_OUT_QUEUE, RD_KAFKA_RESP_ERR__QUEUE_FULL,
        RD_KAFKA_RESP_ERR__RESOLVE, RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT, RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION,
        RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE, RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS,
        RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS_AFTER_APPEND, RD_KAFKA_RESP_ERR_NETWORK_EXCEPTION,
        RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE, RD_KAFKA_RESP_ERR_NOT_COORDINATOR,
        RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS, RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART,
        RD_KAFKA_RESP_ERR_KAFKA_STORAGE_ERROR, RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS,
    ]
    private static let retryable = Set(retryableCodes.map { Int32($0.rawValue) })
}

extension String {
    /// Reads a NUL-terminated C string out of a fixed-size buffer that librdkafka filled.
    init(cBuffer buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
