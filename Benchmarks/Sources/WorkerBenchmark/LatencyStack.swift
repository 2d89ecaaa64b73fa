import BenchmarkSupport
import Foundation
import Kafka
import Logging
import Synchronization

/// What the README gives a new user, as child processes: `query-worker embedded-kafka` with the README's
/// topics and `query-worker run --bootstrap-servers B --allowed-hosts 127.0.0.1` with every other setting at
/// its default; plus, in this process, a request producer (linger 0, as an interactive client would) and a
/// reader that notes the Kafka timestamp of every request and outcome by requestId.
final class LatencyStack: Sendable {
    /// Kafka's timestamps (milliseconds since the epoch) of one request and its outcome.
    struct Stamps: Sendable {
        var requestMs: Int64?
        var outcomeMs: Int64?
        var status: String?
    }

    static let topics = (requests: "feature-queries", results: "feature-query-results", errors: "feature-query-errors")

    let kafka: LatencyChild
    let worker: LatencyChild
    let bootstrap: String
    let producer: KafkaProducer
    let reader: KafkaPartitionReader
    private let tasks: [Task<Void, any Error>]
    private let stamps: StampBook

    private init(kafka: LatencyChild, worker: LatencyChild, bootstrap: String, producer: KafkaProducer, reader: KafkaPartitionReader) {
        self.kafka = kafka
        self.worker = worker
        self.bootstrap = bootstrap
        self.producer = producer
        self.reader = reader
        let stamps = StampBook()
        self.stamps = stamps
        tasks = [
            Task { try await producer.run() },
            Task { try await reader.run() },
            Task {
                for try await message in reader.messages {
                    let value = message.value ?? []
                    guard let id = OutcomeFields.string("requestId", in: value), let stamp = message.timestampMs else { continue }
                    let isRequest = message.topic == Self.topics.requests
                    let status = isRequest ? nil : OutcomeFields.string("status", in: value)
                    stamps.book.withLock { all in
                        if isRequest { all[id, default: Stamps()].requestMs = stamp } else {
                            all[id, default: Stamps()].outcomeMs = stamp
                            all[id, default: Stamps()].status = status
                        }
                    }
                }
            },
        ]
    }

    /// Starts the cluster and the worker as the README does (`runArguments` adds flags for the peer side),
    /// and waits until the worker has its partitions.
    static func start(queryWorker: String, runArguments: [String], logFile: String, logger: Logger) async throws -> LatencyStack {
        let kafka = try LatencyChild([
            queryWorker, "embedded-kafka", "--topic", "\(topics.requests):3", "--topic", "\(topics.results):12",
            "--topic", "\(topics.errors):3",
        ])
        guard let bootstrap = await kafka.line(timeout: .seconds(30), where: { !$0.isEmpty })?.text else {
            await kafka.stop()
            throw BenchmarkError("embedded-kafka printed no bootstrap line")
        }
        let worker = try LatencyChild(
            [queryWorker, "run", "--bootstrap-servers", bootstrap, "--allowed-hosts", "127.0.0.1"] + runArguments, logFile: logFile)
        let client = KafkaClientConfiguration(bootstrapServers: [bootstrap], clientID: "latency-bench")
        let producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client, linger: .zero), logger: logger)
        let reader = try KafkaPartitionReader(client: client, fetchWaitMax: EmbeddedKafkaCluster.fetchWaitMax, logger: logger)
        let partitions = try await reader.partitions(of: [topics.requests, topics.results, topics.errors], timeout: .seconds(15))
        try reader.assign(Dictionary(uniqueKeysWithValues: partitions.map { ($0, KafkaPartitionReader.beginning) }))
        let stack = LatencyStack(kafka: kafka, worker: worker, bootstrap: bootstrap, producer: producer, reader: reader)
        let log = WorkerLog(path: logFile)
        do {
            try await log.wait(for: 1, message: "partitions assigned", timeout: .seconds(60)) {
                guard worker.process.isRunning else { throw BenchmarkError("the worker exited at start; its log: \(logFile)") }
            }
        } catch {
            await stack.stop()
            throw error
        }
        return stack
    }

    /// Publishes one request (key: its taskId) and waits for the broker's acknowledgement.
    func publish(key: String, value: String) async throws {
        _ = try await producer.send(KafkaProducerMessage(topic: Self.topics.requests, key: key, value: value))
    }

    /// The stamps of these requests once each has its request and outcome timestamps; throws after `timeout`.
    func stamps(of ids: [String], timeout: Duration = .seconds(60)) async throws -> [Stamps] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found = stamps.book.withLock { all in ids.map { all[$0] ?? Stamps() } }
            if found.allSatisfy({ $0.requestMs != nil && $0.outcomeMs != nil }) { return found }
            guard ContinuousClock.now < deadline else { throw BenchmarkError("no outcome for \(ids) within \(timeout): \(found)") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    func stop() async {
        producer.triggerGracefulShutdown()
        reader.triggerGracefulShutdown()
        for task in tasks { _ = try? await task.value }
        await worker.stop()
        await kafka.stop()
    }
}

/// The stamps by requestId, under a lock shared with the reading task.
private final class StampBook: Sendable {
    let book = Mutex<[String: LatencyStack.Stamps]>([:])
}
