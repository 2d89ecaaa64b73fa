import Kafka
import Testing
import KafkaTestSupport

/// `KafkaPartitionReader` against the embedded cluster: partitions from metadata, offsets by time and end
/// offsets (`rd_kafka_offsets_for_times`), and reading from concrete offsets without a group.
@Suite struct KafkaPartitionReaderTests {
    @Test func readsOnlyWhatWasPublishedAfterTheStartOffsetsWereResolved() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("reader")
        try cluster.createTopic(topic, partitions: 3)
        let producer = try TestSupport.producer(cluster, linger: .zero)
        let reader = try KafkaPartitionReader(
            client: TestSupport.client(cluster), fetchWaitMax: EmbeddedKafkaCluster.fetchWaitMax, logger: TestSupport.logger)
        try await TestSupport.withRunning(producers: [producer]) {
            let old = (0..<9).map { KafkaProducerMessage(topic: topic, partition: Int32($0 % 3), key: "k", value: "old-\($0)") }
            _ = try await TestSupport.sendAll(producer, old)

            let partitions = try await reader.partitions(of: [topic], timeout: .seconds(10))
            #expect(Set(partitions) == Set((0..<3).map { KafkaTopicPartition(topic: topic, partition: $0) }))
            let ends = try await reader.endOffsets(of: partitions, timeout: .seconds(10))
            #expect(ends.values.sorted() == [3, 3, 3], "three old messages in each partition: \(ends)")
            // librdkafka's mock (2.0.2) does not look up times: every partition answers "none yet".
            let byTime = try await reader.offsets(atOrAfterTimestampMs: 1, of: partitions, timeout: .seconds(10))
            #expect(byTime.count == 3 && byTime.values.allSatisfy { $0 == nil }, "\(byTime)")
            let starts = try await reader.startOffsets(atOrAfterTimestampMs: 1, of: partitions, timeout: .seconds(10))
            #expect(starts == ends, "a partition without a time answer starts at its end")

            try reader.assign(starts)
            let new = (0..<6).map { KafkaProducerMessage(topic: topic, partition: Int32($0 % 3), key: "k", value: "new-\($0)") }
            _ = try await TestSupport.sendAll(producer, new)
            let read = try await Self.read(reader, count: 6)
            #expect(Set(read.compactMap { $0.value.map { String(decoding: $0, as: UTF8.self) } }) == Set((0..<6).map { "new-\($0)" }))
            #expect(read.allSatisfy { $0.offset >= 3 && $0.timestampMs != nil })
        }
    }

    @Test func readsFromTheBeginning() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("reader-start")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster, linger: .zero)
        let reader = try KafkaPartitionReader(client: TestSupport.client(cluster), logger: TestSupport.logger)
        try await TestSupport.withRunning(producers: [producer]) {
            _ = try await TestSupport.sendAll(producer, (0..<4).map { KafkaProducerMessage(topic: topic, key: "k", value: "m\($0)") })
            try reader.assign([KafkaTopicPartition(topic: topic, partition: 0): KafkaPartitionReader.beginning])
            let read = try await Self.read(reader, count: 4)
            #expect(read.map(\.offset) == [0, 1, 2, 3])
        }
    }

    @Test func theEmbeddedClusterIsRecognizedByItsClusterID() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let id = try await KafkaClusterIdentity.clusterID(client: TestSupport.client(cluster), timeout: .seconds(10), logger: TestSupport.logger)
        let clusterID = try #require(id, "the embedded cluster reported no cluster id")
        #expect(EmbeddedKafkaCluster.isEmbedded(clusterID: clusterID), "\(clusterID)")
        // A real cluster's id: a base64 UUID (Apache Kafka's KRaft format).
        #expect(!EmbeddedKafkaCluster.isEmbedded(clusterID: "MkU3OEVBNTcwNTJENDM2Qk"))
    }

    /// Runs the reader until `count` messages arrived (or a minute passed), then stops it.
    static func read(_ reader: KafkaPartitionReader, count: Int) async throws -> [KafkaConsumerMessage] {
        try await withThrowingTaskGroup(of: [KafkaConsumerMessage]?.self) { group in
            group.addTask {
                try await reader.run()
                return nil
            }
            group.addTask {
                var received: [KafkaConsumerMessage] = []
                for try await message in reader.messages {
                    received.append(message)
                    if received.count >= count { break }
                }
                return received
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                guard Task.isCancelled else { throw TestTimeout(what: "reading \(count) messages", limit: .seconds(60)) }
                return nil
            }
            var result: [KafkaConsumerMessage] = []
            while let next = try await group.next() {
                if let next {
                    result = next
                    break
                }
            }
            reader.triggerGracefulShutdown()
            group.cancelAll()
            try await group.waitForAll()
            return result
        }
    }
}
