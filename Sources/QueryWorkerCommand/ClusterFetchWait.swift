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
        if clusterID == nil {
            // The worker goes on (librdkafka keeps trying and the worker warns while it waits), but the operator
            // should know the first answer did not come.
            logger.warning(
                "the Kafka cluster did not answer within \(probeTimeout.clampedMilliseconds / 1000)s; assuming a real cluster",
                metadata: ["bootstrapServers": .string(settings.bootstrapServers.joined(separator: ","))])
        }
        var fields: Logger.Metadata = ["clusterId": .string(clusterID ?? "unknown"), "embeddedCluster": .stringConvertible(embedded)]
        // Absent: librdkafka's default.
        if let wait = resolved.fetchWaitMax { fields["fetchWaitMaxMs"] = .stringConvertible(wait.clampedMilliseconds) }
        logger.info("fetch wait chosen for the cluster", metadata: fields)
        return resolved
    }
}

extension ClusterFetchWait {
    /// `run` with `exactlyOnce`: refuses the stock embedded cluster (see ``ExactlyOnceClusterRefusal``). A
    /// cluster that does not answer within ``probeTimeout`` is taken for a real one, as above.
    static func checkExactlyOnce(_ settings: WorkerSettings, logger: Logger) async throws(ExactlyOnceClusterRefusal) {
        guard settings.exactlyOnce.enabled else { return }
        let client = KafkaClientConfiguration(
            bootstrapServers: settings.bootstrapServers, clientID: "\(settings.workerID)-cluster-id",
            additionalProperties: settings.kafkaProperties)
        guard let clusterID = try? await KafkaClusterIdentity.clusterID(client: client, timeout: probeTimeout, logger: logger),
            EmbeddedKafkaCluster.isEmbedded(clusterID: clusterID), !EmbeddedKafkaCluster.keepsTransactions(clusterID: clusterID)
        else { return }
        throw ExactlyOnceClusterRefusal(clusterID: clusterID)
    }
}

/// `exactlyOnce` asked of the stock embedded cluster (librdkafka 2.0.2's mock), which accepts transactions but
/// keeps none of their offsets and shows aborted outcomes to every reader: the worker would answer every request
/// again after each restart while claiming exactly once. Refused at start, saying what to use instead.
struct ExactlyOnceClusterRefusal: Error, CustomStringConvertible {
    let clusterID: String

    var description: String {
        "exactlyOnce needs a cluster that keeps transactions, and \(clusterID) is the stock embedded cluster "
            + "(librdkafka's mock), which does not: use a Kafka broker, or the transactional build of the embedded "
            + "cluster (scripts/build-transactional-kafka, then LD_LIBRARY_PATH=<its folder> query-worker embedded-kafka)"
    }
}
