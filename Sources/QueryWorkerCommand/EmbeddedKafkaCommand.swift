import ArgumentParser
import Kafka
import Logging
import ServiceLifecycle

/// `query-worker embedded-kafka`: librdkafka's mock cluster on loopback, until SIGINT or SIGTERM.
struct EmbeddedKafkaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embedded-kafka",
        abstract: "Serve an in-process Kafka-protocol cluster (librdkafka's mock cluster) on loopback.",
        discussion: """
            Prints the bootstrap server list as the first line of standard output.

            For trying things out only: the mock cluster keeps about the last 5 MiB of each partition and \
            silently drops older messages. A large split result (all its parts go to one partition) then loses \
            its first parts and `query --wait` never completes. Give the results topic many partitions \
            (--topic feature-query-results:12) and keep results small (--result count, a smaller extent), or \
            use a real Kafka (docker compose up).
            """
    )

    /// Said on standard error at start, so a user who never reads `--help` hears of the limit too.
    static let retentionNote =
        "note: embedded-kafka keeps only about the last 5 MiB of each partition and drops older messages "
        + "silently; give results topics many partitions and keep results small (see --help)"

    @Option(help: "Number of brokers.")
    var brokers: Int = 1

    @Option(name: .customLong("topic"), help: "A topic to create, as NAME:PARTITIONS. Repeatable.")
    var topics: [TopicSpec] = []

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        let logger = logging.makeLogger(label: "embedded-kafka")
        let cluster = try EmbeddedKafkaCluster(brokers: brokers, logger: logger)
        for topic in topics {
            try cluster.createTopic(topic.name, partitions: topic.partitions, replicationFactor: min(3, brokers))
        }
        printLine(cluster.bootstrapServers)
        printError(Self.retentionNote)
        logger.info("embedded Kafka serving", metadata: ["bootstrap": "\(cluster.bootstrapServers)", "brokers": "\(brokers)"])
        let group = ServiceGroup(
            services: [EmbeddedKafkaService(cluster: cluster)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        try await group.run()
        logger.info("embedded Kafka stopped")
    }
}

/// Keeps the cluster alive until graceful shutdown.
struct EmbeddedKafkaService: Service {
    let cluster: EmbeddedKafkaCluster
    func run() async throws {
        try? await gracefulShutdown()
        withExtendedLifetime(cluster) {}
    }
}

/// `NAME:PARTITIONS` (partitions default to 1).
struct TopicSpec: ExpressibleByArgument, Sendable {
    let name: String
    let partitions: Int

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard let first = parts.first, !first.isEmpty, parts.count <= 2 else { return nil }
        name = String(first)
        if parts.count == 2 {
            guard let count = Int(parts[1]), (1...10_000).contains(count) else { return nil }
            partitions = count
        } else {
            partitions = 1
        }
    }
}
