import CurlHTTP
import Kafka
import Logging
import ServiceLifecycle
import Synchronization
import WorkerTestSupport

@testable import QueryWorker

extension LifecycleRig {
    /// An in-process worker of the group, started now.
    func startWorker(_ workerID: String, configure: (inout WorkerSettings) -> Void = { _ in }) throws -> InProcessWorker {
        var settings = baseSettings
        settings.workerID = workerID
        configure(&settings)
        return try InProcessWorker(settings: settings)
    }
}

/// One worker in process, its own service group, and the log lines it wrote. Here, not in WorkerTestSupport: its
/// tests read the worker's internals (`@testable`), which a library target cannot import in a release build.
final class InProcessWorker: Sendable {
    let assembly: WorkerAssembly
    let group: ServiceGroup
    let log: LogRecorder
    private let running: Task<Void, any Error>
    private let finished = Flag()

    init(settings: WorkerSettings) throws {
        let log = LogRecorder()
        var logger = Logger(label: "worker-\(settings.workerID)") { _ in log.handler() }
        logger.logLevel = .info
        assembly = try WorkerAssembly(settings: settings, logger: logger)
        group = assembly.serviceGroup(handlesSignals: false, logger: logger)
        self.log = log
        let (group, finished) = (group, finished)
        running = Task {
            defer { finished.set() }
            try await group.run()
        }
    }

    var core: WorkerCore { assembly.worker.core }
    var workerID: String { assembly.settings.workerID }

    /// Partitions the worker's consumer holds now.
    var assignment: Set<KafkaTopicPartition> { assembly.worker.consumer.assignment }

    /// Whether the service group has returned.
    var isFinished: Bool { finished.isSet }

    /// Triggers graceful shutdown and waits (at most `timeout`) for the group to return; false if it did not.
    func stop(timeout: Duration = .seconds(60)) async throws -> Bool {
        await group.triggerGracefulShutdown()
        guard await poll(timeout: timeout, { self.isFinished }) else { return false }
        try await running.value
        await assembly.httpClient.shutdown()
        return true
    }
}

/// A flag set once, read from anywhere.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
}

/// Keeps what a worker logged (level, message, metadata as text), for tests to look for.
final class LogRecorder: Sendable {
    private let lines = Mutex<[(level: Logger.Level, message: String, metadata: String)]>([])

    func handler() -> some LogHandler { Handler(recorder: self) }

    /// How many lines had exactly this message.
    func count(_ message: String) -> Int { lines.withLock { $0.filter { $0.message == message }.count } }

    func record(_ level: Logger.Level, _ message: String, _ metadata: String) {
        lines.withLock { $0.append((level, message, metadata)) }
    }

    /// Every line, `level message metadata`, for a failing test's report.
    var text: [String] { lines.withLock { $0.map { "\($0.level) \($0.message) \($0.metadata)" } } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            recorder.record(event.level, event.message.description, event.metadata.map { "\($0)" } ?? "")
        }
    }
}

extension WorkerCore.StateMachine {
    /// Messages received whose outcome is not yet in the producer's queue: what the gate bounds (the offset
    /// tracker's `active`), as QueryWorkerTests' state machine suites read it.
    var gateLoad: Int { offsets.active }
}
