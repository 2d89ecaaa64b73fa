import Testing
import Synchronization
import FeatureGeometry
package import FeatureQuerySupport
import Foundation
package import Kafka
package import Logging
package import SampleFeatureServer
package import ServiceLifecycle

package import QueryWorker
import Credentials
package import RequestContract

/// One worker in process against the embedded Kafka cluster and the sample feature server, with a producer
/// for requests and a reader of both outcome topics: real sockets all the way.
package final class WorkerHarness: Sendable {
    package static let logger: Logger = {
        var logger = Logger(label: "worker-e2e")
        logger.logLevel = .critical
        return logger
    }()

    package let cluster: EmbeddedKafkaCluster
    package let server: SampleFeatureServer
    package let dataset: SampleDataset
    package let settings: WorkerSettings
    package let group: ServiceGroup
    package let producer: KafkaProducer
    package let reader: KafkaConsumer
    /// The worker's current credentials (`nil` without a credentials file).
    package let credentials: (any CurrentCredentials)?
    /// The worker's last info lines, when it logs through the harness's own logger (no `logger` given): printed
    /// with a failure to see every outcome.
    package let recentLog: RecentLogLines?
    private let tasks: [Task<Void, any Error>]

    /// A worker against a sample server with `faults`, secured by `security` (public when `nil`). `configure`
    /// adjusts the worker's settings; `prepare` too, once the server runs (a credentials file's scopes need its
    /// port). The worker logs through `logger`; without one, at `info` into ``recentLog``. The server keeps the
    /// last `recentRequestLimit` requests in its log.
    package init(
        faults: [FaultRule] = [], security: SampleSecurity? = nil, recentRequestLimit: Int = 1_000, configure: (inout WorkerSettings) -> Void = { _ in },
        prepare: (inout WorkerSettings, SampleFeatureServer) throws -> Void = { _, _ in },
        environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger? = nil
    ) async throws {
        let workerLogger: Logger
        if let logger {
            recentLog = nil
            workerLogger = logger
        } else {
            let ring = RecentLogLines()
            recentLog = ring
            workerLogger = ring.logger()
        }
        cluster = try EmbeddedKafkaCluster(brokers: 1, logger: Self.logger)
        let suffix = String(UUID().uuidString.prefix(8))
        var settings = try Self.settings(for: cluster, suffix: suffix, workerID: "worker-e2e", requestPartitions: 3)
        dataset = try SampleDataset.shared(parcelCount: 20_000, seed: 7)
        server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(
                parcelCount: 20_000, seed: 7, faults: faults, security: security, recentRequestLimit: recentRequestLimit),
            dataset: dataset, logger: Self.logger)
        configure(&settings)
        try prepare(&settings, server)
        self.settings = settings
        let assembly = try WorkerAssembly(settings: settings, environment: environment, logger: workerLogger)
        credentials = assembly.currentCredentials
        group = assembly.serviceGroup(handlesSignals: false, logger: workerLogger)
        let client = KafkaClientConfiguration(bootstrapServers: [cluster.bootstrapServers])
        producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client), logger: Self.logger)
        reader = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                client: client, groupID: "reader-\(suffix)", topics: [settings.topics.results, settings.topics.errors]),
            logger: Self.logger)
        let (group, producer, reader) = (group, producer, reader)
        tasks = [Task { try await group.run() }, Task { try await producer.run() }, Task { try await reader.run() }]
    }

    /// Settings for a test worker on `cluster`, with topics of their own (created here) and loopback allowed.
    package static func settings(
        for cluster: EmbeddedKafkaCluster, suffix: String, workerID: String, requestPartitions: Int
    ) throws -> WorkerSettings {
        var settings = WorkerSettings()
        settings.bootstrapServers = [cluster.bootstrapServers]
        settings.groupID = "workers-\(suffix)"
        settings.workerID = workerID
        settings.topics.requests = "requests-\(suffix)"
        settings.topics.results = "results-\(suffix)"
        settings.topics.errors = "errors-\(suffix)"
        settings.topics.progress = "progress-\(suffix)"
        settings.allowedHosts = ["127.0.0.1"]
        settings.summaryInterval = .zero
        settings.timeouts.shutdown = .seconds(5)
        try cluster.createTopic(settings.topics.requests, partitions: requestPartitions)
        try cluster.createTopic(settings.topics.results, partitions: 1)
        try cluster.createTopic(settings.topics.errors, partitions: 1)
        try cluster.createTopic(settings.topics.progress, partitions: 1)
        return settings
    }

    package func url(_ layer: SampleLayer) -> String { server.layerURL(layer) }

    /// Waits until the names of the worker's credentials satisfy `condition` (a reload has been applied), at most
    /// `timeout`: polled, since parallel tests on two cores can delay the reloader's look by seconds.
    package func waitForCredentials(timeout: Duration = .seconds(60), _ condition: ([String]) -> Bool) async throws {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < timeout {
            if condition(credentials?.store.all.map(\.name) ?? []) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the worker's credentials did not change within \(timeout)")
    }

    /// Sends one request message (a JSON text) keyed by `key`.
    package func send(_ key: String?, _ json: String) async throws {
        _ = try await producer.send(KafkaProducerMessage(topic: settings.topics.requests, key: key, value: json))
    }

    /// Reads `count` outcome messages from the result and error topics.
    ///
    /// A missing outcome fails the test after `timeout` (naming what did arrive) instead of holding the suite:
    /// every request gets exactly one outcome, so a wait that never ends is a defect to see, not to wait out.
    package func outcomes(_ count: Int, timeout: Duration = .seconds(120)) async throws -> [ParsedJSON] {
        guard count > 0 else { return [] }
        let received = ReceivedOutcomes()
        let reader = self.reader
        let complete = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for try await message in reader.messages {
                    let value = try ParsedJSON(parsing: message.value ?? [])
                    if received.values.withLock({ $0.append(value); return $0.count >= count }) { return true }
                }
                return false
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        let values = received.values.withLock { $0 }
        if !complete {
            let ids = values.map { value -> String in if case .string(let id)? = value["requestId"] { id } else { "?" } }
            let log = recentLog.map { "\nThe worker's last log lines:\n\($0.text)" } ?? ""
            let reader = await readerPosition()
            Issue.record("\(values.count) of \(count) outcomes arrived within \(timeout): \(ids)\n\(reader)\(log)")
        }
        return values
    }

    /// Where the reader stands, for a failure that is missing outcomes: its assignment, and for each outcome
    /// topic its end and the reader's position. Tells an outcome never written (the end) from one written and
    /// not read (a partition not assigned, or a position short of the end).
    private func readerPosition() async -> String {
        let partitions = [settings.topics.results, settings.topics.errors].map { KafkaTopicPartition(topic: $0, partition: 0) }
        let lags = (try? await reader.committedLag(for: partitions, timeout: .seconds(5))) ?? [:]
        let figures = partitions.map { partition in
            guard let lag = lags[partition] else { return "\(partition): end unknown" }
            return "\(partition): end \(lag.end), read to \(lag.position.map(String.init) ?? "nothing")"
        }
        let assigned = reader.assignment.map(\.description).sorted()
        return "The reader: assigned \(assigned); \(figures.joined(separator: "; ")); \(reader.bufferedCount) buffered"
    }

    /// Outcomes by requestId (outcomes without one are under "").
    package func outcomesByRequest(_ count: Int) async throws -> [String: [ParsedJSON]] {
        var byRequest: [String: [ParsedJSON]] = [:]
        for value in try await outcomes(count) {
            let id: String = if case .string(let id)? = value["requestId"] { id } else { "" }
            byRequest[id, default: []].append(value)
        }
        return byRequest
    }

    /// Stops the worker gracefully, then the clients and the server.
    package func stop() async throws {
        await group.triggerGracefulShutdown()
        try await tasks[0].value
        reader.triggerGracefulShutdown()
        producer.triggerGracefulShutdown()
        try await tasks[1].value
        try await tasks[2].value
        await server.shutdown()
    }

    /// A request message's JSON.
    package static func request(
        _ id: String, task: String? = nil, url: String, query: String = "{}", extra: String = ""
    ) -> String {
        let taskMember = task.map { #","taskId":"\#($0)""# } ?? ""
        return #"{"requestId":"\#(id)"\#(taskMember),"targets":[{"type":"arcgis","url":"\#(url)"}],"query":\#(query)\#(extra)}"#
    }
}

extension ParsedJSON {
    package var status: String? { if case .string(let value)? = self["status"] { value } else { nil } }
    package var errorCode: String? { if case .string(let value)? = self["error"]?["code"] { value } else { nil } }
}

/// What ``WorkerHarness/outcomes(_:timeout:)`` has read so far, shared with its reading task.
private final class ReceivedOutcomes: Sendable {
    let values = Mutex<[ParsedJSON]>([])
}
