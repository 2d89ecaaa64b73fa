import ArgumentParser
import FeatureQuerySupport
import Foundation
import Kafka
import Logging
import QueryLanguage
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
