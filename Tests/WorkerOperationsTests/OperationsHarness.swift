import CurlHTTP
import Foundation
import Kafka
import Logging
import Prometheus
import QueryWorker
import SampleFeatureServer
import ServiceLifecycle
import WorkerOperations

/// One worker in process with its operations endpoint on a loopback port of its own (port 0), against the
/// embedded Kafka cluster and the sample feature server, plus a producer for requests: real sockets all the way.
///
/// The worker's metrics go to this harness's Prometheus registry (the assembly's `metricsFactory`); no global
/// bootstrap, so several harnesses share one test process.
final class OperationsHarness: Sendable {
    static let logger: Logger = {
        var logger = Logger(label: "ops-e2e")
        logger.logLevel = .critical
        return logger
    }()

    /// The worker's catalog, and the help of the stand-in metric of ``PrometheusScrapeTests``.
    static let help = MetricHelp(MetricHelp.worker.entries.merging(["ops_test_answered": "Outcomes the worker answered (test stand-in)."]) { $1 })

    let cluster: EmbeddedKafkaCluster
    let server: SampleFeatureServer
    let settings: WorkerSettings
    let assembly: WorkerAssembly
    let operations: OperationsServer
    let registry: PrometheusCollectorRegistry
    let group: ServiceGroup
    let producer: KafkaProducer
    let http: HTTPClient
    /// The operations endpoint's port.
    let port: Int
    private let tasks: [Task<Void, any Error>]

    /// A worker whose settings `configure` adjusts (the unreachable-broker test points it elsewhere), serving
    /// the sample server with `faults`.
    init(
        faults: [FaultRule] = [], configure: (inout WorkerSettings) -> Void = { _ in }, workerLogger: Logger = OperationsHarness.logger
    ) async throws {
        cluster = try EmbeddedKafkaCluster(brokers: 1, logger: Self.logger)
        let suffix = String(UUID().uuidString.prefix(8))
        var settings = WorkerSettings()
        settings.bootstrapServers = [cluster.bootstrapServers]
        settings.groupID = "workers-\(suffix)"
        settings.workerID = "ops-e2e"
        settings.topics.requests = "requests-\(suffix)"
        settings.topics.results = "results-\(suffix)"
        settings.topics.errors = "errors-\(suffix)"
        settings.allowedHosts = ["127.0.0.1"]
        settings.summaryInterval = .zero
        settings.timeouts.shutdown = .seconds(2)
        settings.timeouts.revoke = .seconds(2)
        settings.kafkaProperties["sasl.password"] = "hunter2-ops-secret"
        settings.operations.port = 0
        try cluster.createTopic(settings.topics.requests, partitions: 3)
        try cluster.createTopic(settings.topics.results, partitions: 1)
        try cluster.createTopic(settings.topics.errors, partitions: 1)
        configure(&settings)
        self.settings = settings
        let dataset = try SampleDataset.shared(parcelCount: 2_000, seed: 7)
        server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 2_000, seed: 7, faults: faults), dataset: dataset, logger: Self.logger)
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        assembly = try WorkerAssembly(settings: settings, metricsFactory: PrometheusMetricsFactory(registry: registry), logger: workerLogger)
        let assembly = self.assembly
        operations = OperationsServer(
            host: "127.0.0.1", port: 0, status: { assembly.status() }, registry: registry, help: Self.help, logger: Self.logger)
        group = assembly.serviceGroup(handlesSignals: false, before: [operations], logger: Self.logger)
        producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(client: KafkaClientConfiguration(bootstrapServers: [cluster.bootstrapServers])),
            logger: Self.logger)
        http = try HTTPClient(logger: Self.logger)
        let (group, producer) = (group, producer)
        tasks = [Task { try await group.run() }, Task { try await producer.run() }]
        port = try await operations.boundPort()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// GETs a path of the operations endpoint: status code, content type and body.
    func get(_ path: String) async throws -> (status: Int, contentType: String?, body: String) {
        let response = try await http.execute(HTTPRequest(method: .get, url: baseURL + path))
        return (response.status, response.headers["content-type"], String(decoding: response.body, as: UTF8.self))
    }

    /// Sends one request message (a JSON text) keyed by `key`.
    func send(_ key: String?, _ json: String) async throws {
        _ = try await producer.send(KafkaProducerMessage(topic: settings.topics.requests, key: key, value: json))
    }

    /// A request message's JSON.
    static func request(_ id: String, url: String, query: String = #"{"where":"1=1","result":"count"}"#) -> String {
        #"{"requestId":"\#(id)","targets":[{"type":"arcgis","url":"\#(url)"}],"query":\#(query)}"#
    }

    /// Polls the worker's status until `condition` holds (at most `timeout`); returns the last status.
    @discardableResult
    func waitForStatus(timeout: Duration = .seconds(60), _ condition: (WorkerStatus) -> Bool) async throws -> WorkerStatus {
        let deadline = ContinuousClock.now + timeout
        var status = assembly.status()
        while !condition(status), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            status = assembly.status()
        }
        return status
    }

    /// Polls a path until its status code is `expected` (at most `timeout`); returns the last answer.
    @discardableResult
    func waitForEndpoint(_ path: String, status expected: Int, timeout: Duration = .seconds(60)) async throws -> (status: Int, body: String) {
        let deadline = ContinuousClock.now + timeout
        var answer = try await get(path)
        while answer.status != expected, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            answer = try await get(path)
        }
        return (answer.status, answer.body)
    }

    /// Stops the worker gracefully (the operations endpoint last), then the producer, client and server.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await tasks[0].value
        producer.triggerGracefulShutdown()
        try await tasks[1].value
        await http.shutdown()
        await server.shutdown()
    }
}
