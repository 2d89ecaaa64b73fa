import Kafka
import Synchronization
import Testing
import KafkaTestSupport

/// `commitStoredOffsetsSoon()` commits each store soon, but no more often than the commit thread's spacing: a
/// busy worker stores an offset per answer, thousands a second, and committing each after a round trip cost a
/// wake and an OffsetCommit apiece.
@Suite struct KafkaEagerCommitTests {
    @Test func storesMadeCloseTogetherShareSpacedCommitsAndTheLastIsCommitted() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("eager-commit")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)
        var configuration = TestSupport.consumerConfiguration(cluster, group: TestSupport.uniqueName("g"), topic: topic)
        configuration.autoCommitInterval = .seconds(60)  // only the eager commits count
        let commits = Atomic<Int>(0)
        let consumer = try KafkaConsumer(configuration: configuration, logger: TestSupport.logger, commitHandler: { outcome in
            if case .committed = outcome { commits.add(1, ordering: .relaxed) }
        })
        let partition = KafkaTopicPartition(topic: topic, partition: 0)
        let count = 300
        try await TestSupport.withRunning([consumer], producers: [producer]) {
            try await TestSupport.sendAll(producer, (0..<count).map { KafkaProducerMessage(topic: topic, key: "k", value: "v\($0)") })
            let read = try await TestSupport.read(consumer, count: count, storeOffsets: false)

            // One store and one commit request per message, a fraction of a millisecond apart, as answers come.
            let started = ContinuousClock.now
            for message in read {
                try consumer.storeOffset(for: message)
                consumer.commitStoredOffsetsSoon()
                try await Task.sleep(for: .microseconds(300))
            }
            let elapsed = ContinuousClock.now - started
            let spaced = commits.load(ordering: .relaxed)

            // The last store is committed without a further request (the commit after the spacing carries it).
            let deadline = ContinuousClock.now + .seconds(20)
            var committed: Int64?
            while committed != Int64(count), ContinuousClock.now < deadline {
                committed = try await consumer.committedLag(for: [partition], timeout: .seconds(5))[partition]?.committed
                if committed != Int64(count) { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(committed == Int64(count))
            // At most one commit started per spacing (and the one in flight at the end); without the spacing,
            // one per coordinator round trip: hundreds over these stores.
            let bound = Int(elapsed / Duration.milliseconds(5)) + 2
            #expect(spaced >= 1)
            #expect(spaced <= bound, "\(spaced) commits in \(elapsed)")
        }
    }
}
