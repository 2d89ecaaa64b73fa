public import CurlHTTP
public import FeatureService
import FeatureServiceEngines
public import Kafka
public import Logging
public import ServiceLifecycle

/// The worker's parts, made from its settings: HTTP client, feature-service engines, producer, consumer and the
/// worker itself, in the order a `ServiceGroup` must run them.
///
/// The executable's `run` command and the end-to-end tests build workers the same way.
public final class WorkerAssembly: Sendable {
    public let settings: WorkerSettings
    public let httpClient: HTTPClient
    /// Every protocol's engine behind one router (``StandardEngines``).
    public let engine: FeatureServiceRouter
    public let producer: KafkaProducer
    public let worker: QueryWorkerService

    public init(settings: WorkerSettings, logger: Logger) throws {
        self.settings = settings
        httpClient = try HTTPClient(configuration: try settings.httpClientConfiguration(), logger: logger)
        engine = StandardEngines.router(
            httpClient: httpClient,
            limits: StandardEngines.Limits(
                maxRequestsPerHost: settings.limits.maxRequestsPerHost, requestTimeout: settings.timeouts.http,
                maxLayersPerRequest: settings.limits.maxLayers),
            logger: logger)
        var producerProperties = settings.kafkaProperties
        producerProperties["message.max.bytes"] = producerProperties["message.max.bytes"]
            ?? String(settings.limits.maxResultBytes + WorkerSettings.Limits.messageOverhead)
        producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                client: KafkaClientConfiguration(
                    bootstrapServers: settings.bootstrapServers, clientID: settings.workerID,
                    additionalProperties: producerProperties),
                compression: .zstd,
                messageMaxBytes: settings.limits.maxResultBytes + WorkerSettings.Limits.messageOverhead),
            logger: logger)
        worker = try QueryWorkerService(settings: settings, engine: engine, producer: producer, logger: logger)
    }

    /// Producer first, worker last: on graceful shutdown the worker drains, then the consumer commits and
    /// leaves the group, then the producer flushes.
    public var services: [any Service] { [producer, worker.consumer, worker] }

    /// The services in a group that shuts down gracefully on SIGTERM and SIGINT when `handlesSignals` (the
    /// executable), or only when told to (tests running several workers in one process).
    public func serviceGroup(handlesSignals: Bool = true, logger: Logger) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(
            services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }, logger: logger)
        if handlesSignals { configuration.gracefulShutdownSignals = [.sigterm, .sigint] }
        return ServiceGroup(configuration: configuration)
    }

    /// Runs the worker until SIGTERM or SIGINT (or the task is cancelled), then shuts the HTTP client down.
    public func run(logger: Logger) async throws {
        let group = serviceGroup(logger: logger)
        do {
            try await group.run()
        } catch {
            await httpClient.shutdown()
            throw error
        }
        await httpClient.shutdown()
    }
}
