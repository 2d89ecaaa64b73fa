import ArgumentParser
import Foundation
import Kafka
import Logging
import ServiceLifecycle
import UnixSignals

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

            With --fault-commands, standard input takes one fault command per line, each answered with one \
            line on standard output (`ok <command>` once in force, `error <why>`); the end of input stops the \
            cluster. Commands (BROKER: an id from 1, or all): `down BROKER`, `up BROKER`, \
            `leader TOPIC PARTITION BROKER`, `errors API CODE[,CODE...]` (the next requests of type API fail \
            with these Kafka error codes), `delay BROKER API MS[,MS...]` (the next responses of type API are \
            held back), `rtt BROKER MS` (every response is). API is a request name (Produce, Fetch, \
            InitProducerId, ...) or number.
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

    @Flag(help: "Read fault commands from standard input (see above); the end of input stops the cluster.")
    var faultCommands = false

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
        var services = [ServiceGroupConfiguration.ServiceConfiguration(service: EmbeddedKafkaService(cluster: cluster))]
        if faultCommands {
            // Its end (standard input closed: the script or test that drove it is gone) stops the cluster.
            services.append(.init(service: FaultCommandService(cluster: cluster, logger: logger), successTerminationBehavior: .gracefullyShutdownGroup))
        }
        var configuration = ServiceGroupConfiguration(services: services, logger: logger)
        configuration.gracefulShutdownSignals = [.sigterm, .sigint]
        try await ServiceGroup(configuration: configuration).run()
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

/// Applies the fault commands read from standard input, answering each on standard output, until the input
/// ends or the group shuts down.
///
/// Standard input is read on a thread of its own (a blocking read must not hold a cooperative thread). The
/// process spawns nothing: librdkafka's mock rebinds a downed broker's port and aborts the process when that
/// fails, as it does while a child holds a copy of the listening socket (see `EmbeddedKafkaCluster.setBrokerDown`).
struct FaultCommandService: Service {
    let cluster: EmbeddedKafkaCluster
    let logger: Logger

    func run() async throws {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        let reader = Thread {
            while let line = readLine(strippingNewline: true) { continuation.yield(line) }
            continuation.finish()
        }
        reader.name = "fault-commands"
        reader.start()
        for await line in lines.cancelOnGracefulShutdown() where !line.allSatisfy(\.isWhitespace) {
            let answer = cluster.apply(commandLine: line)
            logger.info("fault command", metadata: ["command": "\(line)", "answer": "\(answer)"])
            printLine(answer)
        }
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
