import Foundation
import FeatureQueryClient
import Kafka
import Logging
import QueryWorker
import SampleFeatureServer
import ServiceLifecycle
import Synchronization
import CurlHTTP

/// Everything the demo runs in one process: the embedded Kafka cluster, the sample feature server, one
/// worker (built by `WorkerAssembly`, as `query-worker run` builds it) and a producer for the requests.
///
/// The server plays an ArcGIS portal: its services stay public, and its `Secured` folder serves the same
/// ones behind a token (``DemoSecuredPhase``). The worker reads a credentials file (``DemoCredentials``)
/// with a token credential for that folder.
///
/// The worker and the producer run inside ``run(_:)`` and are shut down gracefully when its body returns
/// or throws: the worker drains and leaves its group, the producer flushes, then the server stops. The
/// command removes the credentials folder at the end.
struct DemoStack {
    let cluster: EmbeddedKafkaCluster
    let server: SampleFeatureServer
    /// The portal's token authority: knobs, revocation and the counters of token calls.
    let authority: SampleTokenAuthority
    let credentials: DemoCredentials
    let settings: WorkerSettings
    /// moto, when installed: the worker then stores large results there (``DemoObjectStore``).
    let objectStore: DemoObjectStore?
    let logger: Logger

    /// Partitions of the requests topic: several, so the keying by taskId matters.
    static let requestPartitions = 3
    /// Partitions of the results and errors topics. The mock cluster keeps only about the last 5 MiB of a
    /// partition and drops older messages silently (a split result would lose its first parts): spread over
    /// 12 partitions by their keys, the demo's outcomes leave each partition a small share of them.
    static let outcomePartitions = 12

    /// Starts the cluster and the server (generating `parcels` parcels) and settles the worker's settings.
    static func start(parcels: Int, seed: UInt64, objectStore: DemoObjectStore?, logger: Logger) async throws -> DemoStack {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: logger)
        var settings = WorkerSettings()
        settings.bootstrapServers = [cluster.bootstrapServers]
        settings.groupID = "demo-workers"
        settings.workerID = "demo-worker"
        settings.allowedHosts = ["127.0.0.1"]
        settings.summaryInterval = .zero
        settings.timeouts.shutdown = .seconds(5)
        settings.logLevel = logger.logLevel
        if let objectStore {
            settings.resultStore.location = "s3://\(objectStore.bucket)/demo"
            settings.resultStore.endpoint = objectStore.endpoint
            settings.resultStore.region = "us-east-1"
            settings.resultStore.partBytes = WorkerSettings.ResultStore.minimumPartBytes
        }
        try cluster.createTopic(settings.topics.requests, partitions: requestPartitions)
        try cluster.createTopic(settings.topics.results, partitions: outcomePartitions)
        try cluster.createTopic(settings.topics.errors, partitions: outcomePartitions)
        try cluster.createTopic(settings.topics.progress, partitions: outcomePartitions)
        let authority = SampleTokenAuthority(knobs: DemoSecuredPhase.knobs)
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(
                parcelCount: parcels, seed: seed, security: SampleSecurity(authority: authority, role: .portal)),
            logger: logger)
        let credentials: DemoCredentials
        do {
            credentials = try DemoCredentials.write(scope: [server.securedBaseURL, server.portalURL ?? server.rootURL + "/portal"])
        } catch {
            await server.shutdown()
            throw error
        }
        settings.credentialsFile = credentials.file
        return DemoStack(
            cluster: cluster, server: server, authority: authority, credentials: credentials, settings: settings,
            objectStore: objectStore, logger: logger)
    }

    /// Runs the worker and a request producer while `body` runs, then shuts everything down in order.
    func run<T: Sendable>(_ body: (KafkaProducer) async throws -> T) async throws -> T {
        let settings = await ClusterFetchWait.resolve(self.settings, logger: logger)
        // moto's keys reach the worker as its environment, not the demo's process.
        let environment = ProcessInfo.processInfo.environment.merging(objectStore == nil ? [:] : DemoObjectStore.environment) { $1 }
        let assembly = try WorkerAssembly(settings: settings, environment: environment, logger: logger)
        let workers = assembly.serviceGroup(handlesSignals: false, logger: logger)
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                client: KafkaClientConfiguration(bootstrapServers: settings.bootstrapServers, clientID: "demo-requests")),
            logger: logger)
        let outcome: Result<T, any Error> = await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await workers.run() }
            group.addTask { try await producer.run() }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(producer))
            } catch {
                result = .failure(error)
            }
            await workers.triggerGracefulShutdown()
            producer.triggerGracefulShutdown()
            do {
                try await group.waitForAll()
            } catch {
                if case .success = result { return .failure(error) }
            }
            return result
        }
        await assembly.httpClient.shutdown()
        await server.shutdown()
        Self.keepUntilExit(cluster)
        return try outcome.get()
    }

    /// Keeps the cluster until the process exits instead of destroying it when the demo is done.
    ///
    /// The worker's Kafka clients outlive its shutdown (as of this writing, `QueryWorkerService`'s consumer
    /// and its core hold each other, so they and the producer are never released), and their broker threads
    /// would log "Disconnected" and "Connection refused" errors after a demo that worked if the cluster went
    /// first. The process ends right after the demo, which takes everything down at once.
    private static func keepUntilExit(_ cluster: EmbeddedKafkaCluster) {
        keptClusters.withLock { $0.append(cluster) }
    }

    private static let keptClusters = Mutex<[EmbeddedKafkaCluster]>([])

    /// Publishes requests in order, each keyed by its taskId, and waits for the broker to take them all.
    static func send(_ requests: [DemoRequest], with producer: KafkaProducer, topic: String) async throws {
        let messages = try requests.map { request in
            KafkaProducerMessage(topic: topic, key: Array(request.job.key.utf8), value: try request.job.messageValue())
        }
        for result in await producer.send(messages) { _ = try result.get() }
    }
}
