import Kafka
import Testing

@Suite struct KafkaLagTests {
    @Test func lagFallsToZeroOnceEverythingIsRead() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("lag")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)
        let consumer = try TestSupport.consumer(cluster, topic: topic)
        let partition = KafkaTopicPartition(topic: topic, partition: 0)
        try await TestSupport.withRunning([consumer], producers: [producer]) {
            #expect(consumer.lag(for: []).isEmpty)
            try await TestSupport.sendAll(producer, (0..<25).map { KafkaProducerMessage(topic: topic, key: "k", value: "v\($0)") })
            _ = try await TestSupport.read(consumer, count: 25)
            try await eventually { consumer.lag(for: [partition])[partition] == 0 }
        }
    }
}
