import Kafka
import Logging
import Testing
import KafkaTestSupport

/// librdkafka's log and statistics callbacks reach the Logger the caller passed in.
@Suite struct KafkaLoggingTests {
    @Test func librdkafkaLogsAndStatisticsReachTheCallersLogger() async throws {
        let records = Locked<[(Logger.Level, String, Logger.Metadata)]>([])
        var logger = Logger(label: "capture") { _ in CapturingLogHandler(records: records) }
        logger.logLevel = .debug
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let client = KafkaClientConfiguration(
            bootstrapServers: [cluster.bootstrapServers],
            statisticsInterval: .milliseconds(100),
            debugContexts: "metadata"
        )
        let producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client), logger: logger)
        try await TestSupport.withRunning(producers: [producer]) {
            try await producer.send(KafkaProducerMessage(topic: "logged", key: "k", value: "v"))
            try await eventually {
                records.withLock { $0.contains { $0.1 == "librdkafka statistics" } }
            }
        }
        let captured = records.withLock { $0 }
        let statistics = try #require(captured.first { $0.1 == "librdkafka statistics" })
        #expect(statistics.2["librdkafka.statistics"]?.description.hasPrefix("{") == true)
        #expect(captured.contains { $0.0 == .debug && $0.2["librdkafka.facility"] != nil }, "no librdkafka debug log line")
    }
}

struct CapturingLogHandler: LogHandler {
    let records: Locked<[(Logger.Level, String, Logger.Metadata)]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let entry = (event.level, event.message.description, metadata.merging(event.metadata ?? [:]) { $1 })
        records.withLock { $0.append(entry) }
    }
}
