import FeatureQuerySupport
import Kafka
import Logging
import QueryWorker

/// Chooses the consumers' fetch wait by the cluster the settings lead to, when no setting chose it
/// (`fetchWaitMax`, `kafka.fetch.wait.max.ms`): librdkafka's 500 ms for a real broker, which answers
/// a fetch as soon as data arrives, and ``EmbeddedKafkaCluster/fetchWaitMax`` for the embedded cluster,
/// which holds an idle fetch for the whole wait (see `WorkerSettings+FetchWait.swift`).
///
/// `run`, `demo` and `query --wait` ask it, so the README's commands get a fast embedded cluster without a
/// flag, and a real cluster keeps librdkafka's default.
enum ClusterFetchWait {
    /// How long the cluster id may take to arrive. A cluster that does not answer in time is taken for a
    /// real one: the worker then starts with librdkafka's default, which is correct, if slower, everywhere.
    static let probeTimeout: Duration = .seconds(3)

    static func resolve(_ settings: WorkerSettings, logger: Logger) async -> WorkerSettings {
        guard settings.fetchWaitNeedsCluster else { return settings }
        let client = KafkaClientConfiguration(
            bootstrapServers: settings.bootstrapServers, clientID: "\(settings.workerID)-cluster-id",
            additionalProperties: settings.kafkaProperties)
        let clusterID = try? await KafkaClusterIdentity.clusterID(client: client, timeout: probeTimeout, logger: logger)
        let embedded = clusterID.map(EmbeddedKafkaCluster.isEmbedded(clusterID:)) ?? false
        let resolved = settings.resolvingFetchWait(clusterIsEmbedded: embedded)
        logger.info(
            "fetch wait chosen for the cluster",
            metadata: [
                "clusterId": "\(clusterID ?? "unknown")", "embeddedCluster": "\(embedded)",
                "fetchWaitMaxMs": "\(resolved.fetchWaitMax.map { String($0.clampedMilliseconds) } ?? "librdkafka default")",
            ])
        return resolved
    }
}
