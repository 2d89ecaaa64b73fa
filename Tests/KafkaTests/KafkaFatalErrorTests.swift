import Kafka
import Testing
import KafkaTestSupport

/// librdkafka's fatal errors, raised for real through the embedded cluster, and transient errors that must
/// not count as one.
@Suite struct KafkaFatalErrorTests {
    /// An idempotent producer whose produce request (its second: base sequence 1) is answered
    /// OUT_OF_ORDER_SEQUENCE_NUMBER has lost its sequence with the broker: librdkafka 2.0.2 raises a fatal
    /// error ("sequence desynchronization"). The producer records it and its `run()` ends on its own,
    /// throwing it, so the owner stops instead of sending into a client that can never deliver again.
    /// (INVALID_PRODUCER_EPOCH, PRODUCER_FENCED, UNKNOWN_PRODUCER_ID and DUPLICATE_SEQUENCE_NUMBER are not
    /// fatal to a non-transactional producer in 2.0.2: they fail the message or are recovered.)
    @Test func anOutOfOrderSequenceIsFatalAndEndsTheProducersRun() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("fatal")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)  // idempotent, as in production
        let ended = Task { () -> KafkaError? in
            do {
                try await producer.run()
                return nil
            } catch {
                return error as? KafkaError
            }
        }
        _ = try await producer.send(KafkaProducerMessage(topic: topic, key: "k", value: "first"))
        #expect(producer.fatalError == nil)
        cluster.pushRequestErrors(.produce, [EmbeddedKafkaCluster.ResponseCode(45)])  // OUT_OF_ORDER_SEQUENCE_NUMBER
        await #expect(throws: KafkaError.self) {
            try await producer.send(KafkaProducerMessage(topic: topic, key: "k", value: "second"))
        }
        // Not told to stop: the fatal error alone ends the run.
        let thrown = await ended.value
        let fatal = try #require(producer.fatalError)
        #expect(fatal.isFatal)
        #expect(fatal.code == .fatal)
        #expect(fatal.rdKafkaName == "OUT_OF_ORDER_SEQUENCE_NUMBER")
        #expect(thrown?.isFatal == true, "run() throws the fatal error: \(String(describing: thrown))")
    }

    /// Transient errors (a request timing out, a dropped connection) are retried by librdkafka: the message
    /// is delivered and nothing is fatal.
    @Test func transientProduceErrorsAreRetriedNotFatal() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("transient")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)
        try await TestSupport.withRunning(producers: [producer]) {
            _ = try await producer.send(KafkaProducerMessage(topic: topic, key: "k", value: "first"))
            #expect(cluster.apply(commandLine: "errors Produce 7,-195,7") == "ok errors Produce 7,-195,7")
            let report = try await producer.send(KafkaProducerMessage(topic: topic, key: "k", value: "second"))
            #expect(report.offset == 1, "delivered once, after the retries")
            #expect(producer.fatalError == nil)
        }
    }
}
