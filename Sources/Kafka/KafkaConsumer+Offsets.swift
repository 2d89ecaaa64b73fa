internal import CRDKafka

extension KafkaConsumer {
    /// Marks a message done: its partition's next offset becomes `offset + 1`, committed with the next
    /// automatic commit, on rebalance and on close. Call it only after the message's work is finished.
    package func storeOffset(for message: KafkaConsumerMessage) throws(KafkaError) {
        // The per-message path: one list entry, its error read in place (no conversions back to Swift).
        let rk = handle.pointer
        let err = RDKafkaTopicPartitionList.withList([(message.topicPartition, message.offset + 1)]) { list in
            let result = rd_kafka_offsets_store(rk, list)
            guard result == RD_KAFKA_RESP_ERR_NO_ERROR, list.pointee.cnt > 0, let element = list.pointee.elems else { return result }
            return element.pointee.err
        }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            var error = KafkaError.rdKafka(err, context: "storing the offset of \(message.topicPartition)", defaultCode: .offset)
            error.code = .offset
            throw error
        }
    }

    /// Stores the next offset to read for each partition. Callers that finish messages out of order store
    /// the end of the contiguous done prefix (librdkafka never moves a committed offset backwards by itself).
    package func storeOffsets(_ nextOffsets: [KafkaTopicPartition: Int64]) throws(KafkaError) {
        guard !nextOffsets.isEmpty else { return }
        let rk = handle.pointer
        let failures = RDKafkaTopicPartitionList.withList(nextOffsets.map { ($0.key, $0.value) }) { list in
            _ = rd_kafka_offsets_store(rk, list)
            return RDKafkaTopicPartitionList.entries(list).filter { $0.error != RD_KAFKA_RESP_ERR_NO_ERROR }
        }
        // Remembered only when every offset was taken: a partial failure is a revocation racing the store.
        if failures.isEmpty { core.storedOffsets.noteStored(nextOffsets) }
        if let failure = failures.first {
            var error = KafkaError.rdKafka(failure.error, context: "storing the offset of \(failure.partition)", defaultCode: .offset)
            error.code = .offset
            throw error
        }
    }

    /// Commits the stored offsets now and waits for the broker's answer.
    package func commit() async throws(KafkaError) {
        let handle = self.handle
        let err = await KafkaPollThread.call(name: "kafka-commit") { rd_kafka_commit(handle.pointer, nil, 0) }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR || err == RD_KAFKA_RESP_ERR__NO_OFFSET else {
            throw KafkaError.rdKafka(err, context: "commit", defaultCode: .offset)
        }
    }
}
