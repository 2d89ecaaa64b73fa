import Kafka
import Testing
import KafkaTestSupport

/// The lag against the group's committed offset and the partition's real end: what KEDA scales on and what
/// the worker's summary line, metric and status page show.
@Suite struct KafkaLagTests {
    @Test func lagCountsWhatIsReadButNotCommittedAndWhatArrivesWhilePaused() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("lag")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)
        let consumer = try TestSupport.consumer(cluster, topic: topic)
        let partition = KafkaTopicPartition(topic: topic, partition: 0)
        try await TestSupport.withRunning([consumer], producers: [producer]) {
            #expect(try await consumer.committedLag(for: [], timeout: .seconds(5)).isEmpty)
            try await TestSupport.sendAll(producer, (0..<25).map { KafkaProducerMessage(topic: topic, key: "k", value: "v\($0)") })

            // Read, none stored: the position is at the end, but nothing is committed, so all 25 are behind.
            let read = try await TestSupport.read(consumer, count: 25, storeOffsets: false)
            try await Task.sleep(for: .milliseconds(1200))  // past an auto-commit interval: still nothing to commit
            let unstored = try #require(try await consumer.committedLag(for: [partition], timeout: .seconds(5))[partition])
            #expect(unstored.committed == nil)
            #expect(unstored.end == 25)
            #expect(unstored.lag == 25)
            #expect(unstored.readAhead == 25)
            #expect(consumer.bufferedCount == 0)

            // Stored and committed: nothing behind.
            try consumer.storeOffset(for: read[24])
            try await consumer.commit()
            let committed = try #require(try await consumer.committedLag(for: [partition], timeout: .seconds(5))[partition])
            #expect(committed.committed == 25)
            #expect(committed.lag == 0)

            // Paused, so no fetch refreshes librdkafka's cached watermark: the end must come from the cluster.
            consumer.pause([partition])
            try await Task.sleep(for: .milliseconds(300))
            try await TestSupport.sendAll(producer, (0..<10).map { KafkaProducerMessage(topic: topic, key: "k", value: "w\($0)") })
            let paused = try #require(try await consumer.committedLag(for: [partition], timeout: .seconds(5))[partition])
            #expect(paused.end == 35)
            #expect(paused.lag == 10)
            #expect(!paused.endIsCached)
        }
    }

    @Test func anUnreachableClusterFailsTheLookupWithinItsTimeout() async throws {
        // Port 1 on loopback: nothing listens there, so every connection is refused at once.
        var configuration = KafkaConsumerConfiguration(
            client: KafkaClientConfiguration(bootstrapServers: ["127.0.0.1:1"], clientID: "lag-unreachable"),
            groupID: TestSupport.uniqueName("lag-unreachable"), topics: ["nowhere"])
        configuration.closeTimeout = .seconds(2)
        let consumer = try KafkaConsumer(configuration: configuration, logger: TestSupport.logger)
        let started = ContinuousClock.now
        await #expect(throws: KafkaError.self) {
            try await consumer.committedLag(for: [KafkaTopicPartition(topic: "nowhere", partition: 0)], timeout: .seconds(1))
        }
        // Two lookups of at most 1 s each: it returns rather than waiting for the cluster (the bound is loose,
        // for a loaded machine; the point is that it ends).
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
