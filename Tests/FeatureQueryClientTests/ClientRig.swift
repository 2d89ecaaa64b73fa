import FeatureQueryClient
import Logging
import QueryWorker
import ServiceLifecycle
import WorkerTestSupport

/// A ``FeatureQueryClient`` running in a service group beside an in-process worker (``WorkerHarness``: the
/// embedded Kafka cluster and the sample feature server), configured for the worker's topics.
struct ClientRig {
    let harness: WorkerHarness
    let client: FeatureQueryClient
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(harness: WorkerHarness, client: FeatureQueryClient, group: ServiceGroup, running: Task<Void, any Error>) {
        self.harness = harness
        self.client = client
        self.group = group
        self.running = running
    }

    /// Starts a client for `harness`'s worker.
    ///
    /// The default call timeout only stops a hang: these tests are about what arrives, not how fast. They run in
    /// the test process that starts a thousand tests at once on two cores, where a job of four 700 ms pages once
    /// took more than 60 s to be answered (f32, `progressArrivesAsAStreamThatEndsWithTheCall`). Tests of the
    /// timeout itself pass their own.
    static func start(harness: WorkerHarness, defaultTimeout: Duration = .seconds(240)) throws -> ClientRig {
        let settings = harness.settings
        let client = try FeatureQueryClient(
            configuration: .init(
                bootstrapServers: settings.bootstrapServers, requestsTopic: settings.topics.requests,
                resultsTopic: settings.topics.results, errorsTopic: settings.topics.errors,
                progressTopic: settings.topics.progress, clientID: "client-tests",
                defaultTimeout: defaultTimeout, fetchWaitMax: .milliseconds(10)),
            logger: WorkerHarness.logger)
        let group = ServiceGroup(services: [client], logger: WorkerHarness.logger)
        let running = Task { try await group.run() }
        return ClientRig(harness: harness, client: client, group: group, running: running)
    }

    /// Stops the client (its run ends without error), then the worker.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
        try await harness.stop()
    }
}
