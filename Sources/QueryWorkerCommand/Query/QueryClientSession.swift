import ArgumentParser
import FeatureQueryClient
import Kafka
import Logging
import QueryWorker
import ServiceLifecycle

/// `query` and `cancel` on the client library: one ``FeatureQueryClient`` per command, configured from the worker's
/// settings, run for as long as the command needs it.
///
/// The client resolves where the outcome topics end before it publishes, so `--wait` reads the outcome however
/// fast the worker is (see ``FeatureQueryClient/run()``); its errors become the command's messages, which say what
/// to check.
struct QueryClientSession {
    let kafka: QueryKafkaSettings
    let logger: Logger

    /// How long publishing may take before the command gives up: long enough for a slow broker, short enough that
    /// a wrong `--bootstrap-servers` is an error a user sees soon (librdkafka would retry for minutes).
    static let publishTimeout: Duration = .seconds(15)

    /// Publishes `job` without waiting for its outcome (no outcome topics needed).
    func publish(_ job: QueryJob) async throws {
        try await withClient(readsOutcomes: false, timeout: nil) { client in try await client.publish(job) }
    }

    /// Publishes the contract's cancel for `taskId`.
    func cancel(taskId: String) async throws {
        try await withClient(readsOutcomes: false, timeout: nil) { client in try await client.cancel(taskId: taskId) }
    }

    /// Publishes `job` and returns its outcome, or `nil` when none came within `timeout`; a job that asked for
    /// progress has its events handed to `progress` as they arrive, until the outcome.
    func submit(
        _ job: QueryJob, timeout: Duration, progress: (@Sendable (QueryProgress) -> Void)? = nil
    ) async throws -> QueryOutcome? {
        try await withClient(readsOutcomes: true, timeout: timeout) { client in
            // Listening starts before the job is published, so no event is missed; the stream ends with the call.
            let events = job.progress ? progress.map { (client.progress(of: job.requestId), $0) } : nil
            async let watched: Void = {
                guard let (stream, handle) = events else { return }
                for await event in stream { handle(event) }
            }()
            do {
                let outcome = try await client.submit(job, timeout: timeout)
                await watched
                return outcome
            } catch let error as FeatureQueryError where error.code == .timeout {
                await watched
                return nil
            }
        }
    }

    /// Runs a client while `body` uses it, then stops it; the client's errors become ``CommandFailure``s.
    private func withClient<T: Sendable>(
        readsOutcomes: Bool, timeout: Duration?, _ body: @Sendable (FeatureQueryClient) async throws -> T
    ) async throws -> T {
        let settings = readsOutcomes ? await ClusterFetchWait.resolve(kafka.settings, logger: logger) : kafka.settings
        let configuration = FeatureQueryClient.Configuration(
            bootstrapServers: settings.bootstrapServers, requestsTopic: settings.topics.requests,
            resultsTopic: settings.topics.results, errorsTopic: settings.topics.errors, clientID: "query-worker-query",
            // librdkafka's own default, which `query` has always read with: a transactional worker's aborted
            // outcomes stay unseen, and a worker without transactions is read as soon as it publishes.
            readCommitted: true, maxInFlight: 1, defaultTimeout: timeout ?? .seconds(60), fetchWaitMax: settings.fetchWaitMax,
            kafkaProperties: settings.kafkaProperties, publishTimeout: Self.publishTimeout, readsOutcomes: readsOutcomes)
        let client: FeatureQueryClient
        do {
            client = try FeatureQueryClient(configuration: configuration, logger: logger)
        } catch {
            throw CommandFailure("\(error.message)")
        }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            defer { group.cancelAll() }
            do {
                return try await body(client)
            } catch let error as FeatureQueryError {
                throw failure(error)
            }
        }
    }

    /// A client error as the command reports it: where it tried, and what to check.
    private func failure(_ error: FeatureQueryError) -> any Error {
        let servers = kafka.settings.bootstrapServers.joined(separator: ",")
        let topics = kafka.settings.topics
        guard error.code == .kafka || error.code == .shutdown else {
            return CommandFailure("\(error.message) (\(error.code))")
        }
        if error.message.contains("outcome topics") {
            return CommandFailure(
                "could not read \(topics.results) and \(topics.errors) at \(servers) "
                    + "(is Kafka running there, and do the topics exist?): \(error.message)")
        }
        return CommandFailure(
            "could not publish to \(topics.requests) at \(servers) (is Kafka running there, and does the topic exist?): "
                + error.message)
    }
}
