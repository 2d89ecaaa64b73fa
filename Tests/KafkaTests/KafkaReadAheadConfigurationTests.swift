import Testing
import KafkaTestSupport

@testable import Kafka

/// The consumer's read-ahead bounds and the producer's queue bounds reach librdkafka: read back from the
/// running client's configuration, with what librdkafka derives from them.
@Suite struct KafkaReadAheadConfigurationTests {
    let client = KafkaClientConfiguration(bootstrapServers: ["127.0.0.1:1"])

    @Test func prefetchBoundsReachLibrdkafkaAndCapOneFetch() throws {
        let configuration = KafkaConsumerConfiguration(
            client: client, groupID: "g", topics: ["t"], prefetchMessages: 1_000, prefetchBytes: 2 << 20)
        let consumer = try KafkaConsumer(configuration: configuration, logger: TestSupport.logger)
        #expect(consumer.effectiveProperty("queued.min.messages") == "1000")
        #expect(consumer.effectiveProperty("queued.max.messages.kbytes") == "2048")
        // Derived by librdkafka from the byte bound (its default is 52428800): one fetch stays within it.
        #expect(consumer.effectiveProperty("fetch.max.bytes") == "2097152")
    }

    @Test func withoutBoundsLibrdkafkasDefaultsApply() throws {
        let consumer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(client: client, groupID: "g", topics: ["t"]), logger: TestSupport.logger)
        #expect(consumer.effectiveProperty("queued.min.messages") == "100000")
        #expect(consumer.effectiveProperty("queued.max.messages.kbytes") == "65536")
        #expect(consumer.effectiveProperty("fetch.max.bytes") == "52428800")
        #expect(consumer.effectiveProperty("no.such.property") == nil)
    }

    @Test func byteBoundIsRoundedUpToWholeKilobytes() {
        let configuration = KafkaConsumerConfiguration(client: client, groupID: "g", topics: ["t"], prefetchBytes: 1_500)
        #expect(configuration.properties.last { $0.0 == "queued.max.messages.kbytes" }?.1 == "2")
        #expect(!configuration.properties.contains { $0.0 == "queued.min.messages" })
    }

    @Test func passThroughPropertyOverridesTheBound() throws {
        var client = self.client
        client.additionalProperties = ["queued.min.messages": "5"]
        let consumer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(client: client, groupID: "g", topics: ["t"], prefetchMessages: 1_000),
            logger: TestSupport.logger)
        #expect(consumer.effectiveProperty("queued.min.messages") == "5")
    }

    @Test func producerQueueBoundsReachLibrdkafka() throws {
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(client: client, queueMaxMessages: 2_500, queueMaxKilobytes: 8_192),
            logger: TestSupport.logger)
        #expect(producer.effectiveProperty("queue.buffering.max.messages") == "2500")
        #expect(producer.effectiveProperty("queue.buffering.max.kbytes") == "8192")
    }
}
