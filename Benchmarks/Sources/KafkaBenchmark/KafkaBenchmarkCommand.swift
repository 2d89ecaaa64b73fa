import BenchmarkSupport
import ArgumentParser
import Foundation
import Logging

/// `kafka-benchmark`: producer and consumer throughput of the Swift Kafka bridge against the C client
/// (librdkafka alone, `Benchmarks/c/kafka_bench.c`), in one run, on one embedded (mock) cluster that runs in
/// a process of its own. Run it through `Benchmarks/run-kafka-benchmark.sh`, which builds everything.
@main
struct KafkaBenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kafka-benchmark",
        abstract: "Producer and consumer throughput of the Swift Kafka bridge against the C client alone.",
        discussion: """
            Each repetition produces --messages keyed messages with the C client to one topic and with the \
            Swift bridge to another (the order alternates between repetitions), then reads each topic in a new \
            consumer group, storing every message's offset. Both sides use the bridge's default settings. \
            Producing is timed after one warm-up message has been delivered (connection and producer id not \
            counted) until the last delivery report; consuming from the first message to the last (the group \
            join not counted). Prints each run with its rate and the client process's CPU time per message, \
            then a table of the best and median rates and the Swift/C ratios of the medians against --target.
            """
    )

    @Option(help: "Path to the C client benchmark (built from Benchmarks/c/kafka_bench.c).")
    var cClient: String

    @Option(help: "Path to the query-worker executable; its `embedded-kafka` subcommand serves the cluster.")
    var queryWorker: String

    @Option(help: "Messages per run.")
    var messages: Int = 200_000

    @Option(help: "Value size in bytes.")
    var messageSize: Int = 1024

    @Option(help: "Runs of each side (producing and consuming); the order of the sides alternates.")
    var repetitions: Int = 3

    @Option(
        help: """
            Partitions per topic. The mock cluster keeps only the last 5 MiB of each partition, so the default \
            is enough partitions to hold every message (at least 6).
            """
    )
    var partitions: Int?

    @Option(help: "Messages per producer.send([...]) call on the Swift side.")
    var batchSize: Int = 10_000

    @Option(help: "Concurrent producer.send([...]) calls on the Swift side.")
    var concurrency: Int = 4

    @Option(help: "The Swift consumer's read-ahead buffer (KafkaConsumerConfiguration.bufferCapacity); default: the library's.")
    var consumerBufferCapacity: Int?

    @Option(
        help: "librdkafka debug contexts (e.g. fetch,consumer) for both clients: the Swift ones log at debug level, the C one to stderr."
    )
    var librdkafkaDebug: String?

    @Option(help: "An extra librdkafka consumer property NAME=VALUE for both sides (repeatable), for experiments.")
    var consumerProperty: [String] = []

    @Option(help: "A consume run that has not read every message after this many seconds fails.")
    var consumeTimeout: Int = 300

    @Option(help: "The Swift/C ratio each operation must reach (on the median).")
    var target: Double = 0.8

    @Option(help: "Log level of the Swift clients and the embedded cluster.")
    var logLevel: String = "warning"

    @Option(help: "Sides to run, comma-separated (c, swift): one side alone is for profiling; ratios need both.")
    var sides: String = "c,swift"

    @Option(help: "Operations to run, comma-separated (produce, consume). Consuming alone fills the topics with the C client first, untimed.")
    var operations: String = "produce,consume"

    @Flag(help: "Exit with status 1 when a ratio is below the target.")
    var strict = false

    /// librdkafka's mock cluster: `mpart->max_size = 5 MiB` per partition, older batches are dropped.
    static let mockPartitionRetentionBytes = 5 * 1024 * 1024

    func validate() throws {
        guard messages > 0, messageSize >= 0, repetitions > 0, batchSize > 0, concurrency > 0 else {
            throw ValidationError("--messages, --repetitions, --batch-size and --concurrency must be positive")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        for property in consumerProperty where !property.contains("=") {
            throw ValidationError("--consumer-property needs NAME=VALUE, got '\(property)'")
        }
        _ = try selectedSides
        _ = try selectedOperations
    }

    private var selectedSides: [Side] {
        get throws {
            let sides = try sides.split(separator: ",").map { name in
                guard let side = Side.allCases.first(where: { $0.slug == name.lowercased() }) else {
                    throw ValidationError("unknown side '\(name)' in --sides (c, swift)")
                }
                return side
            }
            guard !sides.isEmpty else { throw ValidationError("--sides is empty") }
            return Side.allCases.filter(sides.contains)
        }
    }

    private var selectedOperations: Set<Operation> {
        get throws {
            let operations = try operations.split(separator: ",").map { name in
                guard let operation = Operation(rawValue: name.lowercased()) else {
                    throw ValidationError("unknown operation '\(name)' in --operations (produce, consume)")
                }
                return operation
            }
            guard !operations.isEmpty else { throw ValidationError("--operations is empty") }
            return Set(operations)
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .warning
        LoggingSystem.bootstrap { BenchmarkLogHandler(label: $0, logLevel: level) }
        let logger = Logger(label: "kafka-benchmark")

        // Record size in the log: value, a short key and some per-record overhead; 1.5x for uneven spread.
        let recordBytes = Double(messageSize + 64)
        let needed = Int((Double(messages) * recordBytes * 1.5 / Double(Self.mockPartitionRetentionBytes)).rounded(.up))
        let partitions = self.partitions ?? max(6, needed)
        if partitions < needed {
            output("warning: \(partitions) partitions may not hold \(messages) messages (the mock cluster keeps 5 MiB per partition)")
        }

        // One topic per side for all repetitions: the mock cluster drops what exceeds its retention, so its
        // memory stays bounded, and with enough partitions it still holds at least the last run's messages.
        let sides = try selectedSides
        let operations = try selectedOperations
        func topic(_ side: Side) -> String { "kafka-bench-\(side.slug)" }
        let topics = sides.map { "\(topic($0)):\(partitions)" }

        let cluster = try EmbeddedClusterProcess(queryWorker: queryWorker, topics: topics, logLevel: logLevel)
        defer { cluster.stop() }

        var consumerProperties: [String: String] = [:]
        for property in consumerProperty {
            let parts = property.split(separator: "=", maxSplits: 1)
            consumerProperties[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        let cRunner = CClientRunner(
            executable: cClient,
            bootstrapServers: cluster.bootstrapServers,
            consumerProperties: consumerProperties,
            debugContexts: librdkafkaDebug
        )
        let swiftRunner = SwiftClientRunner(
            bootstrapServers: cluster.bootstrapServers,
            logger: logger,
            batchSize: batchSize,
            concurrency: concurrency,
            consumeTimeout: .seconds(consumeTimeout),
            consumerBufferCapacity: consumerBufferCapacity,
            debugContexts: librdkafkaDebug,
            consumerProperties: consumerProperties
        )

        output(
            "kafka-benchmark: \(messages) messages x \(messageSize) B, \(partitions) partitions, "
                + "\(repetitions) repetitions, Swift send batches \(batchSize) x \(concurrency) concurrent, "
                + "embedded cluster at \(cluster.bootstrapServers) (separate process)"
                + (consumerProperties.isEmpty
                    ? "" : ", consumer properties " + consumerProperty.joined(separator: " "))
                + (consumerBufferCapacity.map { ", Swift consumer buffer \($0)" } ?? "")
        )
        var results = Results()
        for repetition in 1...repetitions {
            let order = repetition % 2 == 1 ? sides : sides.reversed()
            for side in order where operations.contains(.produce) {
                let measurement: Measurement
                switch side {
                case .c: measurement = try await cRunner.produce(topic: topic(side), count: messages, size: messageSize)
                case .swift: measurement = try await swiftRunner.produce(topic: topic(side), count: messages, size: messageSize)
                }
                results.add(side, .produce, measurement)
                report(repetition, side, .produce, measurement)
            }
            if operations.contains(.consume) && !operations.contains(.produce) {
                // Consuming alone (for profiling): fill the topics with the C client, untimed.
                for side in order {
                    _ = try await cRunner.produce(topic: topic(side), count: messages, size: messageSize)
                }
            }
            for side in order where operations.contains(.consume) {
                let group = "kafka-bench-\(side.slug)-\(repetition)-\(UInt32.random(in: 0...UInt32.max))"
                let measurement: Measurement
                switch side {
                case .c: measurement = try await cRunner.consume(topic: topic(side), count: messages, group: group)
                case .swift: measurement = try await swiftRunner.consume(topic: topic(side), count: messages, group: group)
                }
                results.add(side, .consume, measurement)
                report(repetition, side, .consume, measurement)
            }
        }
        cluster.stop()

        output("")
        let passed = results.printTable(target: target, messages: messages, messageSize: messageSize)
        if strict && !passed { throw ExitCode(1) }
    }

    private func report(_ repetition: Int, _ side: Side, _ operation: Operation, _ measurement: Measurement) {
        output(
            "run \(repetition): \(side.name.padding(5)) \(operation.rawValue.padding(7)) "
                + "\(measurement.messages) msgs in \(format(measurement.seconds, 3)) s = "
                + "\(format(measurement.messagesPerSecond, 0).leftPadding(9)) msgs/s, "
                + "\(format(measurement.megabytesPerSecond, 1)) MB/s, "
                + "CPU \(format(measurement.cpuMicrosecondsPerMessage, 2)) us/msg"
        )
    }
}

enum Side: Hashable, CaseIterable, Sendable {
    case c, swift
    var name: String { self == .c ? "C" : "Swift" }
    var slug: String { self == .c ? "c" : "swift" }
}

enum Operation: String, Hashable, Sendable {
    case produce, consume
}
