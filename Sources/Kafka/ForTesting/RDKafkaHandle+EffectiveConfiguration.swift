internal import CRDKafka

/// A client's properties as librdkafka runs with them, after its own adjustments: tests check that a setting
/// reached librdkafka (and what librdkafka derived from it, like `fetch.max.bytes` from the read-ahead bound),
/// not only the property list handed to it.
extension RDKafkaHandle {
    /// The value of `name` in the client's configuration; `nil` for an unknown property.
    func effectiveProperty(_ name: String) -> String? {
        guard let conf = rd_kafka_conf(pointer) else { return nil }
        var size = 0
        guard rd_kafka_conf_get(conf, name, nil, &size) == RD_KAFKA_CONF_OK, size > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: size)
        guard rd_kafka_conf_get(conf, name, &buffer, &size) == RD_KAFKA_CONF_OK else { return nil }
        return String(cBuffer: buffer)
    }
}

extension KafkaConsumer {
    /// The value librdkafka runs this consumer with for the property `name`.
    package func effectiveProperty(_ name: String) -> String? { handle.effectiveProperty(name) }
}

extension KafkaProducer {
    /// The value librdkafka runs this producer with for the property `name`.
    package func effectiveProperty(_ name: String) -> String? { handle.effectiveProperty(name) }
}
