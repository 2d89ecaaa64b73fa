import Kafka

extension WorkerSettings {
    /// The request consumer's configuration: the group, the read-ahead bounds (``Buffers``) and the librdkafka
    /// properties passed through (applied last, so `kafka.queued.min.messages` overrides ``Buffers/readAheadMessages``).
    func consumerConfiguration(closeTimeout: Duration) -> KafkaConsumerConfiguration {
        var configuration = KafkaConsumerConfiguration(
            client: KafkaClientConfiguration(
                bootstrapServers: bootstrapServers, clientID: workerID, additionalProperties: consumerKafkaProperties),
            groupID: groupID, topics: [topics.requests],
            // A new group starts at the oldest retained request, so none produced before its first commit goes
            // unanswered; `maxRequestAge` answers the stale ones without a query (`kafka.auto.offset.reset` wins).
            autoOffsetReset: .earliest, revokeTimeout: timeouts.revoke,
            // The consumer's own read-ahead (decoded messages waiting for the message loop): the loop takes at
            // most maxInFlight before the gate holds it.
            bufferCapacity: max(64, limits.maxInFlight), closeTimeout: closeTimeout,
            prefetchMessages: buffers.readAheadMessages, prefetchBytes: buffers.readAheadBytes)
        // Exactly-once: offsets are committed only by the transactions that carry their answers, and requests
        // of a transaction that was aborted are not read.
        configuration.autoCommit = !exactlyOnce.enabled
        if exactlyOnce.enabled { configuration.client.additionalProperties["isolation.level"] = "read_committed" }
        // Exactly-once: answers committed past a partition's committed offset are named in the commit's metadata,
        // and a partition's next owner leaves them out.
        configuration.inheritsAnswers = exactlyOnce.enabled
        if staticMembership { configuration.client.additionalProperties["group.instance.id"] = workerID }
        return configuration
    }

    /// The outcome producer's configuration: zstd, a largest message that fits a result part, and the queue
    /// bounds of ``Buffers``; `kafka.message.max.bytes` and other passed-through properties win.
    func producerConfiguration(flushTimeout: Duration) -> KafkaProducerConfiguration {
        var properties = kafkaProperties
        let part = limits.maxResultBytes + Limits.messageOverhead
        properties["message.max.bytes"] = properties["message.max.bytes"] ?? String(part)
        var configuration = KafkaProducerConfiguration(
            client: KafkaClientConfiguration(
                bootstrapServers: bootstrapServers, clientID: workerID, additionalProperties: properties),
            compression: .zstd, queueMaxMessages: buffers.producerQueueMessages,
            queueMaxKilobytes: (buffers.producerQueueBytes + 1023) / 1024, messageMaxBytes: part, flushTimeout: flushTimeout)
        if exactlyOnce.enabled {
            configuration.client.additionalProperties["transactional.id"] = exactlyOnce.transactionalID(groupID: groupID, workerID: workerID)
            // librdkafka requires message.timeout.ms <= transaction.timeout.ms (60 s, Kafka's default, unless set).
            let transactionTimeout = properties["transaction.timeout.ms"].flatMap(Int.init) ?? 60_000
            configuration.client.additionalProperties["transaction.timeout.ms"] = String(transactionTimeout)
            configuration.messageTimeout = min(configuration.messageTimeout, .milliseconds(transactionTimeout))
        }
        return configuration
    }
}
