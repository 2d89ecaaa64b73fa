import ChildProcessFixture
import FeatureQuerySupport
import Foundation
import Kafka
import Logging
import SampleFeatureServer
import Synchronization
import Testing
import FeatureGeometry
import WorkerTestSupport

/// Where the transactional build of the embedded cluster is: librdkafka 2.0.2's mock cluster patched to keep
/// transactional offset commits, hide aborted and open transactions from read_committed readers and fence
/// zombie producers (ThirdParty/librdkafka-mock-transactions). `scripts/test` builds it and sets
/// `QUERY_WORKER_TRANSACTIONAL_KAFKA` to its folder; a run that must include these tests (CI) also sets
/// `QUERY_WORKER_REQUIRE_TRANSACTIONAL_KAFKA=1`, so a missing build fails instead of skipping.
enum TransactionalKafka {
    static var libraryDirectory: String? {
        guard let directory = ProcessInfo.processInfo.environment["QUERY_WORKER_TRANSACTIONAL_KAFKA"], !directory.isEmpty,
            FileManager.default.fileExists(atPath: "\(directory)/librdkafka.so.1")
        else { return nil }
        return directory
    }

    static var required: Bool { ProcessInfo.processInfo.environment["QUERY_WORKER_REQUIRE_TRANSACTIONAL_KAFKA"] == "1" }

    /// Whether the tests run: with the build, or when it is required (they then fail, saying what is missing).
    static var testsRun: Bool { libraryDirectory != nil || required }
}

/// What the exactly-once tests share: the transactional embedded cluster in a process of its own
/// (`query-worker embedded-kafka` with the patched librdkafka on `LD_LIBRARY_PATH`; the workers and this
/// process link Debian's unpatched 2.0.2 as clients), the sample feature server, `query-worker run --exactly-once`
/// processes started and killed at will, a producer of requests and a **read_committed** reader of outcomes.
final class ExactlyOnceRig: Sendable {
    static let logger: Logger = {
        var logger = Logger(label: "exactly-once")
        logger.logLevel = .critical
        return logger
    }()

    static let requestsTopic = "eos-requests"
    static let resultsTopic = "eos-results"
    static let errorsTopic = "eos-errors"
    static let requestPartitions = 6

    let executable: String
    let cluster: FaultCommandCluster
    let server: SampleFeatureServer
    let producer: KafkaProducer
    let reader: KafkaConsumer
    let group = "eos-workers-\(UUID().uuidString.prefix(8))"
    private let directory: String
    private let collected = CollectedOutcomes()
    private let tasks: [Task<Void, any Error>]

    init(executable: String, libraryDirectory: String, faults: [FaultRule] = []) async throws {
        self.executable = executable
        var environment = ProcessInfo.processInfo.environment
        environment["LD_LIBRARY_PATH"] = libraryDirectory
        cluster = try await FaultCommandCluster(
            executable: executable, brokers: 3,
            topics: ["\(Self.requestsTopic):\(Self.requestPartitions)", "\(Self.resultsTopic):3", "\(Self.errorsTopic):1"],
            environment: environment)
        let dataset = try SampleDataset.shared(parcelCount: 20_000, seed: 7)
        server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 20_000, seed: 7, faults: faults), dataset: dataset,
            logger: Self.logger)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("eos-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let client = KafkaClientConfiguration(
            bootstrapServers: [cluster.bootstrapServers], additionalProperties: ["isolation.level": "read_committed"])
        producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client), logger: Self.logger)
        reader = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                client: client, groupID: "eos-reader-\(UUID().uuidString.prefix(8))", topics: [Self.resultsTopic, Self.errorsTopic]),
            logger: Self.logger)
        let (producer, reader, collected) = (producer, reader, collected)
        tasks = [
            Task { try await producer.run() },
            Task { try await reader.run() },
            Task {
                try await readEachOnce(reader) { message in
                    let value = try ParsedJSON(parsing: message.value ?? [])
                    collected.items.withLock { $0.append((value.string("requestId") ?? "", value.string("worker") ?? "?")) }
                }
            },
        ]
    }

    /// A `query-worker run --exactly-once` process of the group, named `workerID` (its `transactional.id` is
    /// the group and this name: a restart under the same name fences its predecessor). ``WatchedProcess/stop(timeout:)``
    /// kills it with SIGKILL (`stopSignal` "TERM": stops it gracefully). `exactlyOnce` false: the default
    /// at-least-once worker, on the same cluster. `transactionTimeout`: 10 s, so that a killed worker that is not
    /// restarted holds read_committed readers back no longer; a transaction open longer (the cluster away) is
    /// aborted and its producer fenced, which stops the worker (exit status 3). `staticMembership`: the worker
    /// joins as the static member `workerID` (`--static-membership true`).
    func startWorker(
        _ workerID: String, incarnation: Int = 1, exactlyOnce: Bool = true, stopSignal: String = "KILL",
        transactionTimeout: Duration = .seconds(10), sessionTimeout: Duration? = nil, staticMembership: Bool = false
    ) throws -> WatchedProcess {
        let session = sessionTimeout.map { ["--kafka", "session.timeout.ms=\($0.components.seconds * 1000)"] } ?? []
        let membership = staticMembership ? ["--static-membership", "true"] : []
        return try WatchedProcess(
            name: "\(workerID).\(incarnation)",
            [
                executable, "run", "--bootstrap-servers", cluster.bootstrapServers, "--group-id", group,
                "--allowed-hosts", "127.0.0.1", "--summary-interval", "0", "--log-level", "info", "--exactly-once", "\(exactlyOnce)",
                "--set", "topics.requests=\(Self.requestsTopic)", "--set", "topics.results=\(Self.resultsTopic)",
                "--set", "topics.errors=\(Self.errorsTopic)", "--set", "workerId=\(workerID)",
                // A killed worker's open transaction is aborted by its restart (same transactional.id) at once.
                "--kafka", "transaction.timeout.ms=\(transactionTimeout.components.seconds * 1000)",
            ] + session + membership,
            stopSignal: stopSignal, logDirectory: directory)
    }

    /// The pids of this rig's `query-worker run` processes named `workerID` (not their watchdogs), from /proc.
    func workerPIDs(_ workerID: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard arguments.first?.hasSuffix("query-worker") == true, arguments.contains("workerId=\(workerID)"),
                arguments.contains(group)
            else { return nil }
            return pid
        }
    }

    /// Count requests on the sample server's states layer, one task each (keys spread them over the partitions).
    func send(_ ids: some Collection<String>) async throws {
        let url = server.layerURL(.states)
        let reports = await producer.send(ids.map { id in
            KafkaProducerMessage(
                topic: Self.requestsTopic, key: id,
                value: LifecycleRig.request(id, task: id, url: url, query: #"{"result":"count"}"#))
        })
        for report in reports { _ = try report.get() }
    }

    /// One count request on `layer` into each partition of the requests topic (ids `prefix-0` …): with a
    /// latency fault on that layer, a request each partition's later ones finish past, so their answers are
    /// committed past the partition's committed offset.
    func sendToEveryPartition(_ prefix: String, layer: SampleLayer) async throws -> [String] {
        let url = server.layerURL(layer)
        let ids = (0..<Self.requestPartitions).map { "\(prefix)-\($0)" }
        let reports = await producer.send(ids.enumerated().map { partition, id in
            KafkaProducerMessage(
                topic: Self.requestsTopic, partition: Int32(partition), key: id,
                value: LifecycleRig.request(id, task: id, url: url, query: #"{"result":"count"}"#))
        })
        for report in reports { _ = try report.get() }
        return ids
    }

    /// The outcomes read so far, as (requestId, worker).
    var outcomes: [(requestId: String, worker: String)] { collected.items.withLock { $0 } }

    /// How `ids` were answered by the outcomes read so far.
    func tally(_ ids: [String]) -> Tally {
        let wanted = Set(ids)
        let byRequest = Dictionary(grouping: outcomes.filter { wanted.contains($0.requestId) }, by: \.requestId)
        return Tally(
            requests: ids.count, lost: ids.filter { byRequest[$0] == nil },
            repeated: byRequest.filter { $0.value.count > 1 }.mapValues { $0.map(\.worker) },
            firstAnsweredBy: Dictionary(grouping: byRequest.values.compactMap(\.first?.worker), by: { $0 }).mapValues(\.count))
    }

    /// Requests without an outcome, those with more than one (by the workers that answered), and who answered first.
    struct Tally: CustomStringConvertible {
        var requests: Int
        var lost: [String]
        var repeated: [String: [String]]
        var firstAnsweredBy: [String: Int]
        var description: String {
            "\(requests) requests, \(lost.count) lost, \(repeated.count) answered more than once, first answers by worker \(firstAnsweredBy)"
        }
    }

    /// Waits until every one of `ids` has an outcome; false after `timeout`.
    func waitForAnswers(to ids: some Sequence<String>, timeout: Duration) async -> Bool {
        let wanted = Set(ids)
        return await poll(timeout: timeout) { wanted.isSubset(of: Set(self.outcomes.map(\.requestId))) }
    }

    /// Writes a plain message to each outcome topic and waits until the reader has read both: a read_committed
    /// reader gets past no open transaction, so once both are read, every transaction begun before is decided.
    func barrier(timeout: Duration) async throws -> Bool {
        let id = "barrier-\(UUID().uuidString.prefix(8))"
        let reports = await producer.send([Self.resultsTopic, Self.errorsTopic].map { topic in
            KafkaProducerMessage(topic: topic, partition: 0, key: id, value: #"{"requestId":"\#(id)"}"#)
        })
        for report in reports { _ = try report.get() }
        return await poll(timeout: timeout) { self.outcomes.filter { $0.requestId == id }.count == 2 }
    }

    /// Stops the rig. `keepingLogs` leaves the workers' logs (one file per process) where they are and prints
    /// their directory: a lost or repeated answer is traced through them, and the run's clean clone goes away.
    func stop(keepingLogs: Bool = false) async throws {
        reader.triggerGracefulShutdown()
        producer.triggerGracefulShutdown()
        for task in tasks { try await task.value }
        await server.shutdown()
        _ = await cluster.stop()
        if keepingLogs {
            print("exactly-once rig: the workers' logs are kept in \(directory)")
        } else {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}

extension WatchedProcess {
    /// Whether the worker's log says it holds partitions now (its last assignment line came after its last
    /// revocation or loss).
    var holdsPartitions: Bool {
        let text = log
        guard let assigned = text.range(of: #""message":"partitions assigned""#, options: .backwards) else { return false }
        let given = [#""message":"partitions revoked""#, #""message":"partitions lost""#].compactMap {
            text.range(of: $0, options: .backwards)
        }
        return given.allSatisfy { $0.lowerBound < assigned.lowerBound }
    }
}

/// The (requestId, worker) of every outcome the rig's reader read, in order.
private final class CollectedOutcomes: Sendable {
    let items = Mutex<[(requestId: String, worker: String)]>([])
}
