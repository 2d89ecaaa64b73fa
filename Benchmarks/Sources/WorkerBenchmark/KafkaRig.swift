import BenchmarkSupport
import Foundation
import Kafka
import Logging
import Synchronization

/// The topics of one measured run (fresh names per run, so no run reads another's messages).
struct BenchmarkTopics: Sendable {
    var requests: String
    var results: String
    var errors: String
}

/// The Kafka side of the driver: librdkafka's mock cluster served from this process over loopback TCP, and
/// the producer that publishes requests (as any service would).
final class KafkaRig: Sendable {
    let cluster: EmbeddedKafkaCluster
    let producer: KafkaProducer
    let logger: Logger
    private let producerTask: Task<Void, any Error>

    /// Starts the cluster and the producer. `linger` is the producer's batching delay: zero for latency
    /// measurements (each request goes out at once), librdkafka's 5 ms for bulk loads.
    init(linger: Duration, logger: Logger) throws {
        cluster = try EmbeddedKafkaCluster(brokers: 1, logger: logger)
        let client = KafkaClientConfiguration(bootstrapServers: [cluster.bootstrapServers], clientID: "bench-producer")
        producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(client: client, linger: linger), logger: logger)
        self.logger = logger
        let producer = self.producer
        producerTask = Task { try await producer.run() }
    }

    var bootstrapServers: String { cluster.bootstrapServers }

    /// Creates fresh topics named after `run`: `requestPartitions` for requests, one each for outcomes.
    func makeTopics(_ run: String, requestPartitions: Int) throws -> BenchmarkTopics {
        let topics = BenchmarkTopics(requests: "requests-\(run)", results: "results-\(run)", errors: "errors-\(run)")
        try cluster.createTopic(topics.requests, partitions: requestPartitions)
        try cluster.createTopic(topics.results, partitions: 1)
        try cluster.createTopic(topics.errors, partitions: 1)
        return topics
    }

    /// What Kafka adds to each message in a batch (record header, varints), for sizing the mock cluster's
    /// partitions, which keep about the last 5 MiB each and drop older batches.
    private static let recordOverhead = 64

    /// `messages` as a partition of the mock cluster holds them: keys, values and each record's framing.
    static func framedBytes(_ messages: [(key: String, value: String)]) -> Int {
        messages.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + recordOverhead }
    }

    /// Publishes messages (key, JSON value) and waits for every delivery report.
    func publish(_ messages: [(key: String, value: String)], topic: String) async throws {
        let results = await producer.send(messages.map { KafkaProducerMessage(topic: topic, key: $0.key, value: $0.value) })
        for result in results {
            if case .failure(let error) = result { throw BenchmarkError("publishing a request failed: \(error)") }
        }
    }

    /// Flushes and stops the producer; the cluster goes with the rig.
    func shutdown() async {
        producer.triggerGracefulShutdown()
        _ = try? await producerTask.value
    }
}

/// Reads outcome messages (results and errors) in the background and keeps, per message, when it arrived
/// and its `status` and `requestId`.
final class OutcomeReader: Sendable {
    /// One outcome as read.
    struct Outcome: Sendable {
        var arrived: ContinuousClock.Instant
        /// When the worker produced it: the message's timestamp (milliseconds since the epoch), which the
        /// producing client sets when it is handed the message; `nil` when the message has none.
        var producedMs: Int64?
        var status: String
        var requestId: String
        /// The message's value, when the reader keeps them (`keepingValues`); empty otherwise.
        var value: [UInt8] = []
    }

    private let consumer: KafkaConsumer
    private let tasks: [Task<Void, any Error>]
    private let state: LockedOutcomes

    /// `keepingValues`: keep every message's value for a check after the run (the CPU benchmark's), at the
    /// cost of holding them; nothing is decoded while the measured worker runs.
    init(rig: KafkaRig, topics: BenchmarkTopics, keepingValues: Bool = false, logger: Logger) throws {
        // The mock cluster holds an idle fetch for the whole fetch.wait.max.ms (librdkafka's 500 ms): with
        // that the reader saw outcomes in half-second bursts, and a short run's outcomes all at once.
        var client = KafkaClientConfiguration(bootstrapServers: [rig.bootstrapServers], clientID: "bench-reader")
        let wait = EmbeddedKafkaCluster.fetchWaitMax.components
        client.additionalProperties["fetch.wait.max.ms"] = String(wait.seconds * 1000 + wait.attoseconds / 1_000_000_000_000_000)
        let configuration = KafkaConsumerConfiguration(
            client: client,
            groupID: "reader-\(topics.requests)", topics: [topics.results, topics.errors])
        let consumer = try KafkaConsumer(configuration: configuration, logger: logger)
        let state = LockedOutcomes()
        self.consumer = consumer
        self.state = state
        tasks = [
            Task { try await consumer.run() },
            Task {
                for try await message in consumer.messages {
                    let arrived = ContinuousClock.now
                    let value = message.value ?? []
                    state.append(Outcome(
                        arrived: arrived, producedMs: message.timestampMs, status: OutcomeFields.string("status", in: value) ?? "?",
                        requestId: OutcomeFields.string("requestId", in: value) ?? "?", value: keepingValues ? value : []))
                }
            },
        ]
    }

    /// The outcomes read so far, in arrival order.
    var outcomes: [Outcome] { state.snapshot }

    /// How many outcomes have been read.
    var count: Int { state.count }

    /// Waits (polling every `interval`) until at least `count` outcomes are read; false on timeout.
    func wait(for count: Int, timeout: Duration, interval: Duration = .milliseconds(5)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while state.count < count {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: interval)
        }
        return true
    }

    /// Waits until the group gave this reader its partitions; false on timeout.
    func waitAssigned(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while consumer.assignment.isEmpty {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Leaves the group and stops reading.
    func stop() async {
        consumer.triggerGracefulShutdown()
        for task in tasks { _ = try? await task.value }
    }
}

/// The outcomes list under a lock.
private final class LockedOutcomes: Sendable {
    private let outcomes = Mutex<[OutcomeReader.Outcome]>([])

    func append(_ outcome: OutcomeReader.Outcome) { outcomes.withLock { $0.append(outcome) } }
    var snapshot: [OutcomeReader.Outcome] { outcomes.withLock { $0 } }
    var count: Int { outcomes.withLock { $0.count } }
}
