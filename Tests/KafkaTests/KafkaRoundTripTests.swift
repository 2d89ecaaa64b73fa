import Foundation
import Kafka
import Testing
import KafkaTestSupport

/// Producer and consumer against the embedded cluster over loopback TCP.
@Suite struct KafkaRoundTripTests {
    @Test func tenThousandKeyedMessagesWithHeadersRoundTripInOrderPerPartition() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 3, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("roundtrip")
        try cluster.createTopic(topic, partitions: 6, replicationFactor: 3)
        let producer = try TestSupport.producer(cluster)
        let consumer = try TestSupport.consumer(cluster, topic: topic)
        let count = 10_000
        let received = try await TestSupport.withRunning([consumer], producers: [producer]) {
            let messages = (0..<count).map { index in
                KafkaProducerMessage(
                    topic: topic,
                    key: "key-\(index % 97)",
                    value: "value-\(index)",
                    headers: [KafkaHeader(key: "sequence", string: "\(index)"), KafkaHeader(key: "empty", value: nil)]
                )
            }
            let reports = await producer.send(messages)
            let delivered = try reports.map { try $0.get() }
            #expect(delivered.count == count)
            return try await TestSupport.read(consumer, count: count)
        }

        #expect(received.count == count)
        let sequences = received.compactMap { $0.header("sequence")?.stringValue.flatMap(Int.init) }
        #expect(Set(sequences).count == count, "lost or duplicated messages")
        #expect(Set(sequences) == Set(0..<count))

        // Order: offsets rise within each partition, and so does the sequence of each key.
        var lastOffset: [Int32: Int64] = [:]
        var lastSequence: [String: Int] = [:]
        for message in received {
            if let previous = lastOffset[message.partition] { #expect(message.offset > previous) }
            lastOffset[message.partition] = message.offset
            let key = try #require(message.keyString)
            let sequence = try #require(message.header("sequence")?.stringValue.flatMap(Int.init))
            if let previous = lastSequence[key] { #expect(sequence > previous, "key \(key) out of order") }
            lastSequence[key] = sequence
            #expect(message.valueString == "value-\(sequence)")
            #expect(message.header("empty") == KafkaHeader(key: "empty", value: nil))
            #expect(message.timestampMs != nil)
        }
        #expect(lastOffset.count == 6)
        // The same key always went to the same partition.
        let partitionsPerKey = Dictionary(grouping: received, by: { $0.keyString ?? "" }).mapValues { Set($0.map(\.partition)).count }
        #expect(partitionsPerKey.values.allSatisfy { $0 == 1 })
    }

    /// A producer may stamp a message's CreateTime (to replay old messages); unstamped ones get the time of producing.
    @Test func aGivenTimestampReachesTheConsumerAndNoneMeansNow() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("stamped")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)
        let consumer = try TestSupport.consumer(cluster, topic: topic)
        let stamp: Int64 = 1_600_000_000_123
        let before = Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
        let received = try await TestSupport.withRunning([consumer], producers: [producer]) {
            let reports = await producer.send([
                KafkaProducerMessage(topic: topic, key: "old", value: "old", timestampMs: stamp),
                KafkaProducerMessage(topic: topic, key: "new", value: "new"),
            ])
            _ = try reports.map { try $0.get() }
            return try await TestSupport.read(consumer, count: 2)
        }
        let byKey = Dictionary(uniqueKeysWithValues: received.map { ($0.keyString ?? "", $0) })
        #expect(byKey["old"]?.timestampMs == stamp)
        #expect((byKey["new"]?.timestampMs ?? 0) >= before)
    }

    @Test func messagesWithoutKeyOrValueOrWithBinaryValueAreDeliveredAsTheyAre() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("raw")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)
        let consumer = try TestSupport.consumer(cluster, topic: topic)
        let invalidUTF8: [UInt8] = [0xFF, 0xFE, 0x00, 0xC3]
        let sent = [
            KafkaProducerMessage(topic: topic, key: nil, value: Array("no key".utf8)),
            KafkaProducerMessage(topic: topic, key: Array("no value".utf8), value: nil),
            KafkaProducerMessage(topic: topic, key: Array("binary".utf8), value: invalidUTF8),
            KafkaProducerMessage(topic: topic, key: [], value: []),
        ]
        let received = try await TestSupport.withRunning([consumer], producers: [producer]) {
            try await TestSupport.sendAll(producer, sent)
            return try await TestSupport.read(consumer, count: sent.count)
        }
        #expect(received.map(\.key) == [nil, Array("no value".utf8), Array("binary".utf8), []])
        #expect(received.map(\.value) == [Array("no key".utf8), nil, invalidUTF8, []])
        #expect(received[2].valueString == nil)
    }
}
