import ArgumentParser
import FeatureQuerySupport
import Foundation
import Kafka
import Logging
import QueryLanguage
import QueryOutcomes
import QueryWorker

/// The Kafka side of `query`: where to publish and read, resolved as the worker resolves its own settings.
///
/// `query` reads the same `QUERY_WORKER_*` variables and configuration file as `query-worker run`, so on a
/// machine set up for a worker (bootstrap servers, topic names, `QUERY_WORKER_KAFKA_SECURITY_PROTOCOL`, ...)
/// it talks to the same cluster and topics without repeating them.
struct QueryKafkaSettings: Sendable {
    var settings: WorkerSettings
    /// The named queries configured here, to check `--named-where` against before publishing.
    var catalog: NamedQueryCatalog

    static func load(bootstrapServers: String?, requests: String?, results: String?, errors: String?) throws -> QueryKafkaSettings {
        var flags: [String: String] = [:]
        let named: [(String, String?)] = [
            ("bootstrapServers", bootstrapServers), ("topics.requests", requests), ("topics.results", results),
            ("topics.errors", errors),
        ]
        for case let (key, value?) in named { flags[key] = value }
        do {
            let loaded = try WorkerSettings.load(flags: flags)
            for warning in loaded.environmentWarnings { printError("warning: \(warning)") }
            let settings = loaded.settings
            return QueryKafkaSettings(settings: settings, catalog: try settings.namedQueryCatalog())
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// The client configuration of `query`'s producer and reader, with the configured librdkafka properties.
    func client(id: String) -> KafkaClientConfiguration {
        KafkaClientConfiguration(
            bootstrapServers: settings.bootstrapServers, clientID: id, additionalProperties: settings.kafkaProperties)
    }
}

/// Publishing one message (a request or a cancel), and waiting for a request's outcome.
struct QuerySession {
    let kafka: QueryKafkaSettings
    /// The message key: the taskId (the requestId when a request has no taskId).
    let key: String
    /// The request whose outcome ``publishAndWait(timeout:published:received:)`` waits for.
    let requestId: String
    let value: [UInt8]
    let logger: Logger

    init(kafka: QueryKafkaSettings, key: String, requestId: String, value: [UInt8], logger: Logger) {
        self.kafka = kafka
        self.key = key
        self.requestId = requestId
        self.value = value
        self.logger = logger
    }

    init(kafka: QueryKafkaSettings, draft: RequestDraft, value: [UInt8], logger: Logger) {
        self.init(kafka: kafka, key: draft.key, requestId: draft.requestId, value: value, logger: logger)
    }

    /// How long publishing may take before `query` gives up: long enough for a slow broker, short enough
    /// that a wrong `--bootstrap-servers` is an error a user sees soon (librdkafka would retry for minutes).
    static let publishTimeout: Duration = .seconds(15)

    /// Publishes the request keyed by its taskId and waits for the broker's acknowledgement.
    @discardableResult
    func publish() async throws -> KafkaDeliveryReport {
        let message = KafkaProducerMessage(
            topic: kafka.settings.topics.requests, key: Array(key.utf8), value: value)
        let producer = try KafkaProducer(
            // No linger: there is one message, and waiting to batch it would only delay it.
            configuration: KafkaProducerConfiguration(
                client: kafka.client(id: "query-worker-query"), linger: .zero, messageTimeout: Self.publishTimeout),
            logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await producer.run() }
            let result: Result<KafkaDeliveryReport, any Error>
            do {
                result = .success(try await producer.send(message))
            } catch {
                result = .failure(error)
            }
            producer.triggerGracefulShutdown()
            try await group.waitForAll()
            switch result {
            case .success(let report):
                logger.info("published", metadata: ["topic": "\(report.topic)", "partition": "\(report.partition)", "offset": "\(report.offset)"])
                return report
            case .failure(let error):
                throw CommandFailure(
                    "could not publish to \(message.topic) at \(kafka.settings.bootstrapServers.joined(separator: ",")) "
                        + "(is Kafka running there, and does the topic exist?): \(error)")
            }
        }
    }

    /// How far before this machine's clock an outcome's timestamp may be and still count: the worker's
    /// clock may be behind ours. Older outcomes under the same requestId belong to an earlier request.
    static let clockSkewAllowance: Int64 = 30_000

    /// Resolves where the outcome topics end now, publishes (calling `published` once the broker has the
    /// request), and returns the request's outcome, or `nil` when none came within `timeout`. `received` is
    /// handed the outcome as soon as it is complete, before the reader is stopped (which takes a poll's time).
    ///
    /// The reader's start offsets are fixed before the request is published, so its outcome, which comes
    /// later, is read however fast the worker is, and nothing older than this call is (see
    /// ``OutcomeStream``); the fetch wait is chosen for the cluster (``ClusterFetchWait``).
    func publishAndWait(
        timeout: Duration,
        published: () -> Void,
        received: (OutcomeCollector.Completed) throws -> Void
    ) async throws -> OutcomeCollector.Completed? {
        let topics = [kafka.settings.topics.results, kafka.settings.topics.errors]
        let settings = await ClusterFetchWait.resolve(kafka.settings, logger: logger)
        let now = WallClock.nowMilliseconds()
        do {
            return try await OutcomeStream.withStream(
                client: kafka.client(id: "query-worker-query-reader"), fetchWaitMax: settings.fetchWaitMax,
                topics: topics, start: .timestampMs(now), wanted: [requestId], notBeforeMs: now - Self.clockSkewAllowance,
                deadline: .now.advanced(by: timeout), logger: logger
            ) { stream in
                try await publish()
                published()
                let completed = try await stream.next()
                if let completed { try received(completed) }
                return completed
            }
        } catch let error as KafkaError {
            throw CommandFailure(
                "could not read \(topics.joined(separator: " and ")) at \(kafka.settings.bootstrapServers.joined(separator: ",")) "
                    + "(is Kafka running there, and do the topics exist?): \(error)")
        }
    }
}
