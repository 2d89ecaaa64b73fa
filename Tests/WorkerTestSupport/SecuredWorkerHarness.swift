import Authentication
import Credentials
package import FeatureQuerySupport
import Foundation
package import Kafka
package import Logging
package import SampleFeatureServer
package import ServiceLifecycle
import Synchronization
import Testing

package import QueryWorker

/// The secured sample deployment the worker's credentials tests query (SampleFeatureServer's, shared with the
/// sample server's and the authentication tests).
package typealias SecuredServers = SecuredSampleDeployment

/// One worker in process with a credentials file, against the embedded Kafka cluster and the secured sample
/// deployment: real sockets all the way. Every log line the worker writes (at `logLevel`) and every message it
/// produces (key, headers, value) is kept for the tests to search.
package final class SecuredWorkerHarness: Sendable {
    package let cluster: EmbeddedKafkaCluster
    package let servers: SecuredServers
    package let dataset: SampleDataset
    package let folder: CredentialsFolder
    package let settings: WorkerSettings
    package let logs: LogCapture
    package let group: ServiceGroup
    package let producer: KafkaProducer
    package let reader: KafkaConsumer
    private let received = MessageLog()
    private let tasks: [Task<Void, any Error>]

    /// - Parameters:
    ///   - logLevel: the worker's log level (`.trace` includes libcurl's verbose output).
    ///   - authority: the deployment's token authority (users, clients, keys, knobs).
    ///   - standaloneAuthorizer: runs first on each request to the standalone server (a test's trigger).
    ///   - freshTokenWindow: instead of the worker's 10 s, for tests that revoke a token moments after it was
    ///     issued and mean the refresh, not the "refused as soon as issued" guard.
    ///   - credentials: the credentials file's entries, once the servers run (their ports are in the scopes).
    package init(
        logLevel: Logger.Level = .critical, authority: SampleTokenAuthority = SampleTokenAuthority(),
        standaloneAuthorizer: SampleServerAuthorizer? = nil, freshTokenWindow: Duration? = nil,
        credentials: (SecuredServers, CredentialsFolder) async throws -> [String]
    ) async throws {
        cluster = try EmbeddedKafkaCluster(brokers: 1, logger: WorkerHarness.logger)
        let suffix = String(UUID().uuidString.prefix(8))
        var settings = try WorkerHarness.settings(for: cluster, suffix: suffix, workerID: "worker-credentials-e2e", requestPartitions: 3)
        dataset = try SampleDataset.shared(parcelCount: 20_000, seed: 7)
        let folder = try CredentialsFolder()
        self.folder = folder
        let servers = try await SecuredServers.start(
            dataset: dataset, authority: authority, standaloneAuthorizer: standaloneAuthorizer, recentRequestLimit: 5_000,
            logger: WorkerHarness.logger)
        self.servers = servers
        let logs = LogCapture()
        self.logs = logs
        do {
            settings.credentialsFile = try folder.write("credentials.json", CredentialJSON.file(try await credentials(servers, folder)))
            settings.logLevel = logLevel
            self.settings = settings
            let logger = logs.logger(level: logLevel)
            // What `query-worker run` does: the credentials read and checked, the settings echoed, the worker built.
            let loaded = try WorkerCredentials.load(settings: settings)
            logger.info("starting", metadata: loaded.startupMetadata(settings))
            var policy = TokenRefreshPolicy()
            if let freshTokenWindow { policy.freshTokenWindow = freshTokenWindow }
            let assembly = try WorkerAssembly(settings: settings, credentials: loaded, tokenPolicy: policy, logger: logger)
            group = assembly.serviceGroup(handlesSignals: false, logger: logger)
            let client = KafkaClientConfiguration(bootstrapServers: [cluster.bootstrapServers])
            producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client), logger: WorkerHarness.logger)
            reader = try KafkaConsumer(
                configuration: KafkaConsumerConfiguration(
                    client: client, groupID: "reader-\(suffix)", topics: [settings.topics.results, settings.topics.errors]),
                logger: WorkerHarness.logger)
        } catch {
            await servers.shutdown()
            folder.remove()
            throw error
        }
        let (group, producer, reader, received) = (group, producer, reader, received)
        tasks = [
            Task {
                do { try await group.run() } catch {
                    received.failed("worker service group", error)
                    throw error
                }
            },
            Task { try await producer.run() }, Task { try await reader.run() },
            Task {
                for try await message in reader.messages {
                    let captured = CapturedMessage(message)
                    received.append(captured)
                }
            },
        ]
    }

    package var authority: SampleTokenAuthority { servers.authority }

    /// Sends one request message keyed by its requestId (its taskId).
    package func send(_ id: String, _ json: String) async throws {
        _ = try await producer.send(KafkaProducerMessage(topic: settings.topics.requests, key: id, value: json))
    }

    /// A request of one ArcGIS layer, naming `credential` when given.
    package static func request(_ id: String, url: String, query: String = "{}", credential: String? = nil) -> String {
        WorkerHarness.request(id, url: url, query: query, extra: credential.map { #","credential":"\#($0)""# } ?? "")
    }

    /// Every message produced so far.
    package var messages: [CapturedMessage] { received.all }

    /// Waits until every request of `ids` has all its outcome messages (every part of a split result), or
    /// `timeout` passes (which fails the test, naming what is missing). Returns each request's messages in order.
    @discardableResult
    package func outcomes(_ ids: [String], timeout: Duration = .seconds(90)) async throws -> [String: [ParsedJSON]] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let byRequest = Self.byRequest(messages)
            let missing = ids.filter { !Self.isComplete(byRequest[$0] ?? []) }
            if missing.isEmpty { return byRequest }
            if clock.now >= deadline {
                let early = received.taskFailures
                Issue.record(
                    "no complete outcome within \(timeout) for \(missing.count) of \(ids.count) requests: \(missing.prefix(10)); tasks ended early: \(early); messages read: \(messages.count)")
                return byRequest
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The first outcome message of each request of `ids` (the whole outcome unless a result was split).
    package func outcome(_ ids: [String], timeout: Duration = .seconds(90)) async throws -> [String: ParsedJSON] {
        try await outcomes(ids, timeout: timeout).compactMapValues(\.first)
    }

    private static func byRequest(_ messages: [CapturedMessage]) -> [String: [ParsedJSON]] {
        var byRequest: [String: [ParsedJSON]] = [:]
        for json in messages.compactMap(\.json) {
            byRequest[json.text("requestId") ?? "", default: []].append(json)
        }
        return byRequest
    }

    /// Whether `messages` hold a request's whole outcome: one message, or every part of a split result.
    private static func isComplete(_ messages: [ParsedJSON]) -> Bool {
        guard let first = messages.first else { return false }
        guard let parts = first.integer("parts") else { return true }
        return Set(messages.compactMap { $0.integer("part") }).count >= parts
    }

    /// Stops the worker gracefully, then the clients, the servers, and removes the secrets folder.
    package func stop() async throws {
        await group.triggerGracefulShutdown()
        try await tasks[0].value
        reader.triggerGracefulShutdown()
        producer.triggerGracefulShutdown()
        try await tasks[1].value
        try await tasks[2].value
        _ = try? await tasks[3].value
        await servers.shutdown()
        folder.remove()
    }
}

/// The messages read so far, shared with the reading task, and how the harness's tasks ended early (a worker
/// whose service group stopped with an error produces nothing: a timeout says why).
final class MessageLog: Sendable {
    private let messages = Mutex<[CapturedMessage]>([])
    private let failures = Mutex<[String]>([])
    func append(_ message: CapturedMessage) { messages.withLock { $0.append(message) } }
    var all: [CapturedMessage] { messages.withLock { $0 } }
    func failed(_ task: String, _ error: any Error) { failures.withLock { $0.append("\(task): \(error)") } }
    var taskFailures: [String] { failures.withLock { $0 } }
}

extension ParsedJSON {
    /// The ids of a request's layer entries across all its outcome messages (parts of a split result joined):
    /// `objectIds`, `featureIds`, or the GeoJSON features' ids, whichever the entries carry.
    package static func ids(in outcomes: [ParsedJSON]) -> [Int] {
        outcomes.flatMap(\.layerEntries).flatMap { entry in
            entry.integerFeatureIDs ?? entry.integerObjectIDs ?? entry.integerGeoJSONIDs ?? []
        }
    }

    /// A layer entry's `objectIds` as integers; nil when absent or when any is not one.
    package var integerObjectIDs: [Int]? {
        guard let values = elements("objectIds") else { return nil }
        var ids: [Int] = []
        for value in values {
            guard case .number(let number) = value, let id = Int(exactly: number) else { return nil }
            ids.append(id)
        }
        return ids
    }

    /// The first layer entry's error code (a `partial` result's failed layer), else the outcome's error code.
    package var layerOrOutcomeErrorCode: String? {
        if case .string(let code)? = firstLayer?["error"]?["code"] { return code }
        return errorCode
    }
}
