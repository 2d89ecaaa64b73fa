package import Authentication
import Foundation
package import CurlHTTP
import EngineExecution
import FeatureService
import FeatureServiceEngines
import Kafka
package import Logging
package import Metrics
package import ServiceLifecycle
import UnixSignals
package import RequestContract

/// The worker's parts, made from its settings: HTTP client, feature-service engines, producer, consumer and the
/// worker itself, in the order a `ServiceGroup` must run them.
///
/// The executable's `run` command and the end-to-end tests build workers the same way.
package final class WorkerAssembly: Sendable {
    let settings: WorkerSettings
    package let httpClient: HTTPClient
    /// Every protocol's engine behind one router (``StandardEngines``).
    let engine: FeatureServiceRouter
    let producer: KafkaProducer
    let worker: QueryWorkerService
    /// Watches the credentials file; `nil` without one.
    let credentialsReloader: CredentialsReloader?
    /// The credentials requests use now (the authenticator's); `nil` without a credentials file.
    package let currentCredentials: (any CurrentCredentials)?
    private let logger: Logger

    /// A worker with the credentials of ``WorkerSettings/credentialsFile`` (read and checked here: a bad file
    /// throws `CredentialsConfigurationError`).
    package convenience init(
        settings: WorkerSettings, metricsFactory: any MetricsFactory = MetricsSystem.factory,
        environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger
    ) throws {
        try self.init(
            settings: settings, credentials: try WorkerCredentials.load(settings: settings), metricsFactory: metricsFactory,
            environment: environment, logger: logger)
    }

    /// A worker with `credentials` already loaded (the executable loads them first, to echo them at start).
    /// `tokenPolicy` is the token timing rules: the worker's by default; end-to-end tests shorten a window. Every
    /// metric is made through `metricsFactory`, read when the assembly is made: the executable bootstraps its
    /// Prometheus factory before, and tests pass `TestMetrics`. `environment` is where the result store's AWS
    /// credentials and region are looked up (the process's; tests pass moto's keys without touching it).
    package init(
        settings: WorkerSettings, credentials: WorkerCredentials, tokenPolicy: TokenRefreshPolicy = TokenRefreshPolicy(),
        metricsFactory: any MetricsFactory = MetricsSystem.factory, environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger
    ) throws {
        self.settings = settings
        self.logger = logger
        // Before the HTTP client, hence libcurl, starts a thread: GSS-API reads it from the environment.
        credentials.kerberos?.install()
        httpClient = try HTTPClient(configuration: try settings.httpClientConfiguration(), logger: logger)
        let wiring = Self.credentialsWiring(
            credentials, tokenPolicy: tokenPolicy, httpClient: httpClient, metrics: TokenMetrics(factory: metricsFactory),
            logger: logger)
        engine = Self.engines(
            settings: settings, httpClient: httpClient, authenticator: wiring.authenticator,
            metrics: EngineMetrics(factory: metricsFactory), logger: logger)
        currentCredentials = wiring.current
        credentialsReloader = wiring.current.flatMap {
            CredentialsReloader(credentials: credentials, target: $0, logger: logger)
        }
        producer = try KafkaProducer(
            configuration: settings.producerConfiguration(flushTimeout: ShutdownBudget.producerFlush), logger: logger)
        worker = try QueryWorkerService(
            settings: settings, engine: engine, credentials: wiring.names, producer: producer,
            taskExecutor: settings.httpLoopRunsRequests ? httpClient.taskExecutor : nil,
            stores: try Self.resultStores(settings: settings, httpClient: httpClient, environment: environment),
            metrics: WorkerMetrics(factory: metricsFactory), logger: logger)
    }

    /// The bounds of this worker's graceful shutdown (see ``ShutdownBudget``).
    var shutdownBudget: ShutdownBudget { ShutdownBudget(shutdownTimeout: settings.timeouts.shutdown) }

    /// `leading` (the operations endpoint), the credentials reloader (if any), then producer, worker last: on graceful shutdown the worker drains,
    /// then the consumer commits and leaves the group, then the producer flushes. The worker's part is bounded (``ShutdownBudget/worker``):
    /// past it, the producer fails what it has not delivered, which releases publications waiting for
    /// delivery reports from an unreachable cluster, and the worker is cancelled.
    func services(before leading: [any Service] = []) -> [any Service] {
        let producer = self.producer
        let worker = ShutdownDeadline(
            service: self.worker, budget: shutdownBudget.worker, logger: logger,
            onOverrun: { producer.failPendingDeliveries() })
        let reloader: [any Service] = credentialsReloader.map { [$0] } ?? []
        let transactions: [any Service] = self.worker.transactions.map { [$0] } ?? []
        return leading + reloader + [producer, self.worker.consumer] + transactions + [worker]
    }

    /// The services in a group that shuts down gracefully on SIGTERM and SIGINT when `handlesSignals`, or only
    /// when told to (tests running several workers in one process). Either way a graceful shutdown that
    /// overruns ``ShutdownBudget/graceful`` is escalated to cancellation. `leading` services (the operations
    /// endpoint) come first, so they stop last: `/health` and `/metrics` answer while the worker drains.
    package func serviceGroup(handlesSignals: Bool = true, before leading: [any Service] = [], logger: Logger) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(
            services: services(before: leading).map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }, logger: logger)
        if handlesSignals { configuration.gracefulShutdownSignals = [.sigterm, .sigint] }
        configuration.maximumGracefulShutdownDuration = shutdownBudget.graceful
        return ServiceGroup(configuration: configuration)
    }

    /// Runs the worker until SIGTERM or SIGINT (or the task is cancelled), then shuts the HTTP client down.
    /// Throws ``KafkaFatalStop`` when a Kafka client failed fatally (the run ends then, on its own).
    ///
    /// The first signal starts a graceful shutdown, and the process exits when ``ShutdownBudget/total`` has
    /// passed even if something is still stuck (a librdkafka call on its own thread); a second signal exits
    /// at once (see ``ShutdownSignals``). For the executable: it takes over SIGTERM and SIGINT for the process.
    package func run(before leading: [any Service] = [], logger: Logger) async throws {
        let group = serviceGroup(handlesSignals: false, before: leading, logger: logger)
        let signals = ShutdownSignals(bound: shutdownBudget.total, logger: logger)
        let first = signals.first
        do {
            try await withThrowingTaskGroup(of: Bool.self) { tasks in
                tasks.addTask {
                    try await group.run()
                    return true
                }
                tasks.addTask {
                    for await _ in first {
                        await group.triggerGracefulShutdown()
                    }
                    return false
                }
                // The group's end (or its error) ends the run; the signal task then stops waiting.
                while let groupEnded = try await tasks.next(), !groupEnded {}
                tasks.cancelAll()
            }
        } catch {
            await httpClient.shutdown()
            throw kafkaFatalStop ?? error
        }
        await httpClient.shutdown()
        withExtendedLifetime(signals) {}
        if let kafkaFatalStop { throw kafkaFatalStop }
    }

    /// Set when a Kafka client failed fatally: the group then ended (the client's service threw, or the
    /// worker's stream ended with the error), and ``run(before:logger:)`` throws this instead of what the
    /// group threw, whose error may only say that a service ended early.
    package var kafkaFatalStop: KafkaFatalStop? { KafkaFatalStop.of(producer: producer, consumer: worker.consumer) }
}
