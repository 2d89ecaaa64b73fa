internal import CRDKafka

extension KafkaConsumer {
    /// How far this consumer is behind the end of each partition: the high watermark minus its position.
    ///
    /// Reads librdkafka's cached watermarks (refreshed with every fetch) without a network round trip, so a
    /// periodic summary can call it freely. Partitions whose position or watermark is not known yet are absent.
    public func lag(for partitions: [KafkaTopicPartition]) -> [KafkaTopicPartition: Int64] {
        guard !partitions.isEmpty else { return [:] }
        let rk = handle.pointer
        let positions = RDKafkaTopicPartitionList.withList(partitions) { list in
            _ = rd_kafka_position(rk, list)
            return RDKafkaTopicPartitionList.entries(list)
        }
        var result: [KafkaTopicPartition: Int64] = [:]
        for entry in positions where entry.error == RD_KAFKA_RESP_ERR_NO_ERROR && entry.offset >= 0 {
            var low: Int64 = -1
            var high: Int64 = -1
            let err = rd_kafka_get_watermark_offsets(rk, entry.partition.topic, entry.partition.partition, &low, &high)
            guard err == RD_KAFKA_RESP_ERR_NO_ERROR, high >= 0 else { continue }
            result[entry.partition] = max(0, high - entry.offset)
        }
        return result
    }
}
