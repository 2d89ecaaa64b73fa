import ChildProcessFixture
import CurlHTTP
import FeatureGeometry
import FeatureQuerySupport
import Foundation
import Glibc
import Kafka
import Logging
import SampleFeatureServer
import Synchronization
import Testing
import WorkerTestSupport

/// `query-worker embedded-kafka --fault-commands` as a child process: its brokers go down and up, and its
/// partitions change leaders, on command, while this test process spawns what it likes (the mock aborts
/// the process that owns it when a downed broker's port cannot be bound again, as while a child is being
/// spawned; in a process of its own that never happens).
///
/// The child reads its commands from a pipe this process holds: when this process ends in any way, the
/// pipe closes and the cluster stops.
final class FaultCommandCluster: Sendable {
    let bootstrapServers: String
    private let child: SpawnedChild
    private let directory: String
    private let commands: Mutex<Int32?>
    /// Answer lines read so far (the first line of standard output, the bootstrap list, is not one).
    private let answered = Mutex(0)

    /// `environment` nil: this process's (``ExactlyOnceRig`` passes `LD_LIBRARY_PATH` for the transactional build).
    init(executable: String, brokers: Int, topics: [String], environment: [String: String]? = nil) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fault-kafka-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw ChildProcessFailure("pipe failed: errno \(errno)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        let output = open("\(directory)/out", flags, 0o644), errors = open("\(directory)/err", flags, 0o644)
        defer { [output, errors].filter { $0 >= 0 }.forEach { close($0) } }
        let arguments = [executable, "embedded-kafka", "--brokers", "\(brokers)", "--fault-commands", "--log-level", "info"]
            + topics.flatMap { ["--topic", $0] }
        do {
            child = try SpawnedChild(
                arguments, environment: environment, standardInput: ends[0], standardOutput: output, standardError: errors)
        } catch {
            close(ends[1])
            throw error
        }
        commands = Mutex(ends[1])
        let directory = directory
        let child = child
        let first = await poll(timeout: .seconds(60)) {
            Self.lines(in: directory).first?.hasPrefix("127.0.0.1:") == true || !child.isRunning
        }
        guard first, let line = Self.lines(in: directory).first else {
            throw ChildProcessFailure("embedded-kafka printed no bootstrap list: \(Self.text(directory, "err").suffix(2_000))")
        }
        bootstrapServers = line
    }

    var isRunning: Bool { child.isRunning }

    /// What the cluster logged (JSON lines on standard error).
    var log: String { Self.text(directory, "err") }

    /// Sends one command and returns its answer (`ok ...` or `error ...`), waiting for it at most `timeout`.
    @discardableResult
    func command(_ line: String, timeout: Duration = .seconds(30)) async throws -> String {
        let index = answered.withLock { count -> Int in
            count += 1
            return count
        }
        let bytes = Array((line + "\n").utf8)
        let written = commands.withLock { descriptor -> Int in
            guard let descriptor else { return -1 }
            return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
        guard written == bytes.count else { throw ChildProcessFailure("cannot write \(line) to embedded-kafka") }
        let directory = directory
        guard await poll(timeout: timeout, { Self.lines(in: directory).count > index }) else {
            throw ChildProcessFailure("embedded-kafka did not answer \(line): \(log.suffix(2_000))")
        }
        return Self.lines(in: directory)[index]
    }

    /// Closes the command pipe (the cluster stops at the end of its input) and waits for the exit.
    func stop() async -> SpawnedChild.Termination? {
        commands.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
        if await child.waitForExit(timeout: .seconds(30)) == nil { child.signal(SIGKILL) }
        let termination = await child.waitForExit(timeout: .seconds(10))
        try? FileManager.default.removeItem(atPath: directory)
        return termination
    }

    deinit {
        commands.withLock { descriptor in
            if let open = descriptor { close(open) }
        }
    }

    private static func lines(in directory: String) -> [String] {
        text(directory, "out").split(separator: "\n").map(String.init)
    }

    private static func text(_ directory: String, _ name: String) -> String {
        (try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? ""
    }
}

/// What the outage tests share: the fault-command cluster, the sample feature server (in process), a
/// `query-worker run` process with its operations endpoint, a producer of requests and a reader that collects
/// every outcome (by topic, partition and offset, so a rebalance of its own reads nothing twice).
final class KafkaOutageRig: Sendable {
    static let logger: Logger = {
        var logger = Logger(label: "kafka-outage")
        logger.logLevel = .critical
        return logger
    }()

    static let requestsTopic = "outage-requests"
    static let resultsTopic = "outage-results"
    static let errorsTopic = "outage-errors"
    static let requestPartitions = 6

    let cluster: FaultCommandCluster
    let server: SampleFeatureServer
    let worker: WatchedProcess
    let opsPort: Int
    let http: HTTPClient
    let producer: KafkaProducer
    let reader: KafkaConsumer
    private let directory: String
    private let collected = CollectedRequestIds()
    private let tasks: [Task<Void, any Error>]

    init(executable: String, brokers: Int, workerArguments: [String] = []) async throws {
        cluster = try await FaultCommandCluster(
            executable: executable, brokers: brokers,
            topics: ["\(Self.requestsTopic):\(Self.requestPartitions)", "\(Self.resultsTopic):3", "\(Self.errorsTopic):1"])
        let dataset = try SampleDataset.shared(parcelCount: 20_000, seed: 7)
        server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 20_000, seed: 7), dataset: dataset, logger: Self.logger)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("outage-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        opsPort = try ChildProcesses.unusedPort()
        let environment = ProcessInfo.processInfo.environment.merging(["QUERY_WORKER_OPS_ADDRESS": "127.0.0.1"]) { $1 }
        worker = try WatchedProcess(
            name: "worker",
            [
                executable, "run", "--bootstrap-servers", cluster.bootstrapServers, "--group-id", "outage-workers",
                "--allowed-hosts", "127.0.0.1", "--ops-port", "\(opsPort)", "--summary-interval", "0", "--log-level", "info",
                "--set", "topics.requests=\(Self.requestsTopic)", "--set", "topics.results=\(Self.resultsTopic)",
                "--set", "topics.errors=\(Self.errorsTopic)", "--set", "workerId=outage-worker",
            ] + workerArguments,
            environment: environment, logDirectory: directory)
        http = try HTTPClient(logger: Self.logger)
        let client = KafkaClientConfiguration(bootstrapServers: [cluster.bootstrapServers])
        producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client), logger: Self.logger)
        reader = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                client: client, groupID: "outage-reader-\(UUID().uuidString.prefix(8))", topics: [Self.resultsTopic, Self.errorsTopic]),
            logger: Self.logger)
        let (producer, reader, collected) = (producer, reader, collected)
        tasks = [
            Task { try await producer.run() },
            Task { try await reader.run() },
            Task {
                try await readEachOnce(reader) { message in
                    let value = try ParsedJSON(parsing: message.value ?? [])
                    collected.ids.withLock { $0.append(value.string("requestId") ?? "") }
                }
            },
        ]
    }

    /// `/health/ready`'s status (0 when the endpoint does not answer).
    func readiness() async -> Int {
        (try? await http.execute(HTTPRequest(url: "http://127.0.0.1:\(opsPort)/health/ready")))?.status ?? 0
    }

    /// Waits until `/health/ready` answers `ready` (200) or not (any other answer); false after `timeout`.
    func waitForReadiness(_ ready: Bool, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let status = await readiness()
            if ready ? status == 200 : (status != 200 && status != 0) { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Count requests `first..<end` on the sample server's states layer, one task each, spread over the
    /// partitions; returns once every one is delivered to the cluster.
    func send(_ ids: [String]) async throws {
        let url = server.layerURL(.states)
        let reports = await producer.send(ids.map { id in
            KafkaProducerMessage(
                topic: Self.requestsTopic, key: id,
                value: LifecycleRig.request(id, task: id, url: url, query: #"{"result":"count"}"#))
        })
        for report in reports { _ = try report.get() }
    }

    /// The requestIds of every outcome read so far (one entry per outcome).
    var outcomes: [String] { collected.ids.withLock { $0 } }

    /// Waits until at least `count` outcomes are read; false after `timeout`.
    func waitForOutcomes(atLeast count: Int, timeout: Duration) async -> Bool {
        await poll(timeout: timeout) { self.collected.ids.withLock { $0.count } >= count }
    }

    /// Waits until every one of `ids` has an outcome; false after `timeout`.
    func waitForAnswers(to ids: [String], timeout: Duration) async -> Bool {
        let wanted = Set(ids)
        return await poll(timeout: timeout) { wanted.isSubset(of: Set(self.outcomes)) }
    }

    /// For a failure message: each of `ids` not answered yet (at most ten) with the lines the worker logged about
    /// it. `succeeded` means its outcome was delivered to the cluster (so the reader missed it); `received` alone,
    /// that the worker still holds it; nothing, that the worker never read it.
    func unansweredReport(_ ids: [String]) -> String {
        let answered = Set(outcomes)
        let missing = ids.filter { !answered.contains($0) }
        guard !missing.isEmpty else { return "every request answered" }
        let lines = worker.log.split(separator: "\n")
        let report = missing.prefix(10).map { id in
            let about = lines.filter { $0.contains("\"\(id)\"") }.map { String($0.prefix(400)) }
            return "\(id): " + (about.isEmpty ? "nothing logged" : about.joined(separator: " | "))
        }
        let troubles = lines.filter { $0.contains(#""level":"warning""#) || $0.contains(#""level":"error""#) }
            .suffix(20).map { String($0.prefix(400)) }
        return "\(missing.count) unanswered\n" + report.joined(separator: "\n")
            + "\nthe worker's last warnings and errors:\n" + troubles.joined(separator: "\n")
    }

    /// Stops the worker (SIGTERM), the clients, the server and the cluster; returns how the worker ended.
    func stop() async throws -> SpawnedChild.Termination? {
        await worker.stop(timeout: .seconds(60))
        let termination = worker.termination
        reader.triggerGracefulShutdown()
        producer.triggerGracefulShutdown()
        for task in tasks { try await task.value }
        await http.shutdown()
        await server.shutdown()
        _ = await cluster.stop()
        try? FileManager.default.removeItem(atPath: directory)
        return termination
    }
}

/// The requestId of every outcome the rig's reader read, in order (one entry per outcome).
private final class CollectedRequestIds: Sendable {
    let ids = Mutex<[String]>([])
}
