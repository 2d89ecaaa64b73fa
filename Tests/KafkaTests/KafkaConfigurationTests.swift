import Testing
import KafkaTestSupport

@testable import Kafka

@Suite struct KafkaConfigurationTests {
    @Test func unknownPropertyFailsAtStartAndIsNamed() throws {
        var client = KafkaClientConfiguration(bootstrapServers: ["127.0.0.1:1"])
        client.additionalProperties = ["no.such.property": "1"]
        let error = #expect(throws: KafkaError.self) {
            try KafkaProducer(configuration: KafkaProducerConfiguration(client: client), logger: TestSupport.logger)
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("no.such.property") == true)
    }

    @Test func invalidValueFailsAtStartAndIsNamed() throws {
        var client = KafkaClientConfiguration(bootstrapServers: ["127.0.0.1:1"])
        client.additionalProperties = ["session.timeout.ms": "not-a-number"]
        let error = #expect(throws: KafkaError.self) {
            try KafkaConsumer(
                configuration: KafkaConsumerConfiguration(client: client, groupID: "g", topics: ["t"]),
                logger: TestSupport.logger
            )
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("session.timeout.ms") == true)
    }

    /// librdkafka keeps the last value set for a property, so the pass-through value wins when it is set
    /// after the typed one: the property list must put it last, and librdkafka must accept the whole list.
    @Test func passThroughPropertyOverridesTypedValue() throws {
        var client = KafkaClientConfiguration(bootstrapServers: ["127.0.0.1:1"])
        client.additionalProperties = ["partition.assignment.strategy": "roundrobin", "fetch.wait.max.ms": "50"]
        let configuration = KafkaConsumerConfiguration(client: client, groupID: "g", topics: ["t"])
        let strategies = configuration.properties.filter { $0.0 == "partition.assignment.strategy" }.map(\.1)
        #expect(strategies.first == configuration.assignmentStrategy.value)
        #expect(strategies.last == "roundrobin")
        #expect(configuration.properties.last { $0.0 == "fetch.wait.max.ms" }?.1 == "50")
        _ = try KafkaConsumer(configuration: configuration, logger: TestSupport.logger)
    }

    @Test func consumerNeedsATopic() {
        let client = KafkaClientConfiguration(bootstrapServers: ["127.0.0.1:1"])
        #expect(throws: KafkaError.self) {
            try KafkaConsumer(configuration: KafkaConsumerConfiguration(client: client, groupID: "g", topics: []), logger: TestSupport.logger)
        }
    }

    @Test func unreachableBrokerIsRetriedNotFatal() async throws {
        // Nothing listens on port 1: librdkafka logs and retries; a send times out with a typed error.
        let client = KafkaClientConfiguration(bootstrapServers: ["127.0.0.1:1"])
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(client: client, messageTimeout: .milliseconds(1500)),
            logger: TestSupport.logger
        )
        try await TestSupport.withRunning(producers: [producer]) {
            let error = await #expect(throws: KafkaError.self) {
                try await producer.send(KafkaProducerMessage(topic: "t", key: "k", value: "v"))
            }
            #expect(error?.code == .timeout)
            #expect(error?.isRetryable == true)
        }
    }
}
