internal import CRDKafka
import Logging
import Synchronization

extension KafkaConsumer {
    /// Messages taken from librdkafka per hand-over to the reader: one lock round per batch, not per message.
    private static let pollBatch = 512

    /// The poll thread's loop: subscribe, read in batches, serve rebalances (inside the poll), and on stop
    /// close the consumer, which commits stored offsets and leaves the group.
    func pollLoop() {
        let rk = handle.pointer
        if let error = subscribe(rk) {
            finish(error)
            return
        }
        committer.start(handle: handle, onOutcome: commitHandler)
        var batch: [KafkaConsumerMessage] = []
        var topicNames: [OpaquePointer: String] = [:]

        while !core.stopRequested.load(ordering: .relaxed) {
            if handle.context.fatalError.withLock({ $0 }) != nil { break }
            guard let first = rd_kafka_consumer_poll(rk, 100) else { continue }
            take(first, into: &batch, topicNames: &topicNames)
            while batch.count < Self.pollBatch, let next = rd_kafka_consumer_poll(rk, 0) {
                take(next, into: &batch, topicNames: &topicNames)
            }
            if !batch.isEmpty {
                handle.context.heardFromCluster()
                if deliver(batch) { waitForRoom(rk, topicNames: &topicNames) }
                // The reader holds the delivered batch, so keeping its capacity would copy a buffer of that
                // capacity every round (512 messages' worth when reserved up front, however few came): the
                // next batch starts at the size of this one instead.
                let delivered = batch.count
                batch = []
                batch.reserveCapacity(delivered)
            }
        }

        if !committer.stop(timeout: .seconds(2)) {
            logger.warning("a commit was still waiting for the coordinator at close; closing anyway")
        }
        logger.info("closing consumer", metadata: ["group": "\(configuration.groupID)"])
        let closeResult = rd_kafka_consumer_close(rk)
        if closeResult != RD_KAFKA_RESP_ERR_NO_ERROR {
            logger.warning("consumer close reported an error", metadata: ["error": "\(KafkaError.rdKafka(closeResult, context: "close"))"])
        }
        finish(handle.context.fatalError.withLock { $0 })
    }

    private func subscribe(_ rk: OpaquePointer) -> KafkaError? {
        let topics = configuration.topics.map { (KafkaTopicPartition(topic: $0, partition: RD_KAFKA_PARTITION_UA), Int64?.none) }
        let err = RDKafkaTopicPartitionList.withList(topics) { rd_kafka_subscribe(rk, $0) }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            return KafkaError.rdKafka(err, context: "subscribing to \(configuration.topics)", defaultCode: .partition)
        }
        logger.info("subscribed", metadata: ["topics": "\(configuration.topics)", "group": "\(configuration.groupID)"])
        return nil
    }

    private func take(
        _ message: UnsafeMutablePointer<rd_kafka_message_t>,
        into batch: inout [KafkaConsumerMessage],
        topicNames: inout [OpaquePointer: String]
    ) {
        let raw = message.pointee
        guard raw.err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            defer { rd_kafka_message_destroy(message) }
            if raw.err != RD_KAFKA_RESP_ERR__PARTITION_EOF {
                logger.warning("consumer error", metadata: ["error": "\(KafkaError.rdKafka(raw.err, context: "consume"))"])
            }
            return
        }
        var topic = ""
        if let rkt = raw.rkt {
            if let known = topicNames[rkt] {
                topic = known
            } else {
                topic = rd_kafka_topic_name(rkt).map { String(cString: $0) } ?? ""
                topicNames[rkt] = topic
            }
        }
        // Answered by the partition's previous owner, past its commit: not work for this member.
        if core.inheritedAnswers.drops(raw.partition, offset: raw.offset, topic: topic) {
            rd_kafka_message_destroy(message)
            return
        }
        batch.append(KafkaConsumerMessage(rdKafkaMessage: message, topic: topic, client: handle))  // takes ownership
    }

    /// Hands a batch to the reader. True when the read-ahead is full and the poll thread must wait for room.
    private func deliver(_ batch: [KafkaConsumerMessage]) -> Bool {
        let action = core.state.withLock { $0.received(batch) }
        if let (waiter, messages) = action.resume {
            waiter.resume(returning: messages)
        }
        return action.pollerMustWait
    }

    /// Waits until the reader has taken half of the read-ahead (flow control without pausing partitions).
    ///
    /// While every assigned partition is paused (the caller paused them: a worker at its in-flight bound), it
    /// polls meanwhile: paused partitions yield no messages, so the poll serves only callbacks, and a rebalance
    /// is not held up by a reader that itself waits for the rebalance (answers held while commits are
    /// refused). A message fetched before the pause that still comes is added beyond the capacity.
    private func waitForRoom(_ rk: OpaquePointer, topicNames: inout [OpaquePointer: String]) {
        while !core.stopRequested.load(ordering: .relaxed), !core.state.withLock({ $0.hasRoom }) {
            guard core.state.withLock({ $0.everyAssignedPartitionPaused }) else {
                core.waitForRoomBriefly()
                continue
            }
            guard let message = rd_kafka_consumer_poll(rk, 100) else { continue }
            var late: [KafkaConsumerMessage] = []
            take(message, into: &late, topicNames: &topicNames)
            _ = deliver(late)
        }
    }

    /// Ends the message sequence (once; later calls do nothing), with the consumer's fatal error if any.
    func finish(_ error: KafkaError?) {
        let waiter = core.state.withLock { $0.finish(error) }
        if let error {
            waiter?.resume(throwing: error)
        } else {
            waiter?.resume(returning: nil)
        }
    }
}
