internal import CRDKafka

/// Owns one `rd_kafka_message_t` until the last ``KafkaConsumerMessage`` referring to it is gone, and
/// copies its bytes out on demand. Immutable after creation; librdkafka's message is safe to read from any
/// thread and to destroy from any thread.
final class RDKafkaMessageStorage: @unchecked Sendable {
    private let message: UnsafeMutablePointer<rd_kafka_message_t>
    /// The client the message came from: it must outlive the message, so `rd_kafka_destroy` never runs
    /// while a message still refers into it.
    private let client: RDKafkaHandle

    /// Takes ownership of `message`.
    init(_ message: UnsafeMutablePointer<rd_kafka_message_t>, client: RDKafkaHandle) {
        self.message = message
        self.client = client
    }

    deinit { rd_kafka_message_destroy(message) }

    var key: [UInt8]? { Self.bytes(message.pointee.key, message.pointee.key_len) }
    var value: [UInt8]? { Self.bytes(message.pointee.payload, message.pointee.len) }

    var headers: [KafkaHeader] {
        var list: OpaquePointer?
        guard rd_kafka_message_headers(message, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return [] }
        var result: [KafkaHeader] = []
        var index = 0
        while true {
            var name: UnsafePointer<CChar>?
            var value: UnsafeRawPointer?
            var size = 0
            guard rd_kafka_header_get_all(list, index, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR else { break }
            let key = name.map { String(cString: $0) } ?? ""
            let bytes = value.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) }
            result.append(KafkaHeader(key: key, value: bytes))
            index += 1
        }
        return result
    }

    private static func bytes(_ pointer: UnsafeMutableRawPointer?, _ length: Int) -> [UInt8]? {
        guard let pointer else { return nil }
        return Array(UnsafeRawBufferPointer(start: pointer, count: length))
    }
}

extension KafkaConsumerMessage {
    /// Wraps a message read by the consumer; the message is destroyed with the last copy of the value,
    /// and the client is kept alive until then.
    init(rdKafkaMessage message: UnsafeMutablePointer<rd_kafka_message_t>, topic: String, client: RDKafkaHandle) {
        var timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(message, &timestampType)
        self.init(
            topic: topic,
            partition: message.pointee.partition,
            offset: message.pointee.offset,
            timestampMs: timestamp >= 0 ? timestamp : nil,
            storage: RDKafkaMessageStorage(message, client: client)
        )
    }
}
