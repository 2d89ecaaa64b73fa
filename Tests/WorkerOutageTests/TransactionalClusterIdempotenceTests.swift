import Foundation
import Kafka
import Logging
import Testing
import WorkerTestSupport

/// The patched cluster the exactly-once tests run on keeps an idempotent producer's retry out of the log, as a
/// broker does. librdkafka 2.0.2's mock checked sequence numbers only for transactional producers: a request
/// producer whose Produce timed out after the cluster had written the batch wrote it again on retry, and the
/// outage test counted the request's two messages as the worker answering one request twice (3 of 600, once).
@Suite("Transactional cluster: an idempotent producer's retry", .enabled(if: TransactionalKafka.testsRun))
struct TransactionalClusterIdempotenceTests {
    @Test func aRetriedProduceIsWrittenOnce() async throws {
        let executable = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let directory = try #require(TransactionalKafka.libraryDirectory, "run scripts/build-transactional-kafka")
        var environment = ProcessInfo.processInfo.environment
        environment["LD_LIBRARY_PATH"] = directory
        let cluster = try await FaultCommandCluster(
            executable: executable, brokers: 1, topics: ["retried:1"], environment: environment)
        var logger = Logger(label: "idempotence")
        logger.logLevel = .critical
        // The response comes after the request timed out, so the producer sends the same batch again.
        let client = KafkaClientConfiguration(
            bootstrapServers: [cluster.bootstrapServers], additionalProperties: ["request.timeout.ms": "500", "socket.timeout.ms": "500"])
        let producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client), logger: logger)
        let running = Task { try await producer.run() }
        defer { producer.triggerGracefulShutdown() }
        // The topic's metadata first, so that the delay meets the batch and not a lookup.
        _ = try await producer.send(KafkaProducerMessage(topic: "retried", partition: 0, key: "warm-up", value: "0"))
        #expect(try await cluster.command("delay 1 Produce 1500") == "ok delay 1 Produce 1500")
        let keys = (0..<5).map { "retried-\($0)" }
        let reports = await producer.send(keys.map { KafkaProducerMessage(topic: "retried", partition: 0, key: $0, value: "1") })
        for report in reports { _ = try report.get() }
        _ = try await producer.send(KafkaProducerMessage(topic: "retried", partition: 0, key: "end", value: "2"))

        let reader = try KafkaPartitionReader(client: KafkaClientConfiguration(bootstrapServers: [cluster.bootstrapServers]), logger: logger)
        try reader.assign([KafkaTopicPartition(topic: "retried", partition: 0): KafkaPartitionReader.beginning])
        let reading = Task { try await reader.run() }
        var written: [String] = []
        for try await message in reader.messages {
            let key = message.keyString ?? ""
            if key == "end" { break }
            written.append(key)
        }
        reader.triggerGracefulShutdown()
        try await reading.value
        #expect(written == ["warm-up"] + keys, "each message once, in order")
        producer.triggerGracefulShutdown()
        try await running.value
        _ = await cluster.stop()
    }
}
