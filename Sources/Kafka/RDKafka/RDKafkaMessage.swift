internal import CRDKafka

extension KafkaConsumerMessage {
    /// Copies a message out of librdkafka's buffers. Key, value and headers are taken as bytes, whatever
    /// they hold.
    init(rdKafkaMessage message: UnsafePointer<rd_kafka_message_t>, topic: String) {
        let raw = message.pointee
        var timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(message, &timestampType)
        self.init(
            topic: topic,
            partition: raw.partition,
            offset: raw.offset,
            timestampMs: timestamp >= 0 ? timestamp : nil,
            key: Self.bytes(raw.key, raw.key_len),
            value: Self.bytes(raw.payload, raw.len),
            headers: Self.headers(message)
        )
    }

    private static func bytes(_ pointer: UnsafeMutableRawPointer?, _ length: Int) -> [UInt8]? {
        guard let pointer else { return nil }
        return Array(UnsafeRawBufferPointer(start: pointer, count: length))
    }

    private static func headers(_ message: UnsafePointer<rd_kafka_message_t>) -> [KafkaHeader] {
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
}
