import ArgumentParser
import Kafka
import Logging

/// `query-worker demo`: the README's main command. Until the worker exists it starts the embedded cluster
/// and shows a keyed round trip through it; later issues grow it into the full demo.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the demo on the embedded defaults (in-process Kafka cluster)."
    )

    @Option(help: "Messages to send through the embedded cluster.")
    var messages: Int = 1_000

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        let logger = logging.makeLogger(label: "demo")
        let cluster = try EmbeddedKafkaCluster(brokers: 3, logger: logger)
        let topic = "feature-queries"
        try cluster.createTopic(topic, partitions: 6, replicationFactor: 3)
        printLine("embedded Kafka: 3 brokers at \(cluster.bootstrapServers)")

        let report = try await KafkaRoundTrip(
            bootstrapServers: cluster.bootstrapServers,
            topic: topic,
            count: messages,
            logger: logger
        ).run()
        printLine(
            "round trip: \(report.sent) keyed messages sent, \(report.received) received in order per key "
                + "across \(report.partitions) partitions, \(report.duplicates) duplicates, in \(report.elapsedMs) ms"
        )
        guard report.received == report.sent, report.duplicates == 0, report.inOrder else {
            throw ValidationError("round trip lost, duplicated or reordered messages: \(report)")
        }
    }
}
