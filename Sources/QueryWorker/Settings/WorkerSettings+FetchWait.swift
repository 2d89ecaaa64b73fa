import FeatureQuerySupport
import Kafka

/// How long the worker's consumer lets an idle fetch wait.
///
/// A real broker answers a fetch as soon as data arrives, so there the wait only bounds how often an idle
/// consumer asks: librdkafka's 500 ms is cheap and costs no latency. librdkafka's embedded mock cluster
/// holds an idle fetch for the whole wait and sees data produced meanwhile only at the next fetch, so there
/// the wait is added to every hop (a request's way to the worker, a superseding request's). Left unset, the
/// worker asks the cluster its id at start and uses ``EmbeddedKafkaCluster/fetchWaitMax`` on the embedded
/// cluster, librdkafka's default elsewhere.
extension WorkerSettings {
    /// librdkafka's own `fetch.wait.max.ms`, what a real broker gets unless configured.
    package static let realBrokerFetchWaitMax: Duration = .milliseconds(500)

    /// Whether the fetch wait is still to be chosen by the kind of cluster: neither `fetchWaitMax` nor
    /// `kafka.fetch.wait.max.ms` was set.
    package var fetchWaitNeedsCluster: Bool {
        fetchWaitMax == nil && kafkaProperties["fetch.wait.max.ms"] == nil
    }

    /// These settings with the fetch wait chosen for the cluster, unless one was configured.
    package func resolvingFetchWait(clusterIsEmbedded: Bool) -> WorkerSettings {
        guard fetchWaitNeedsCluster else { return self }
        var settings = self
        settings.fetchWaitMax = clusterIsEmbedded ? EmbeddedKafkaCluster.fetchWaitMax : Self.realBrokerFetchWaitMax
        return settings
    }

    /// The librdkafka properties of the consumer: the configured ones, and the fetch wait. The fetch wait is
    /// a consumer property: given to the producer too, librdkafka would log a warning about it.
    package var consumerKafkaProperties: [String: String] {
        var properties = kafkaProperties
        if let fetchWaitMax { properties["fetch.wait.max.ms"] = String(fetchWaitMax.clampedMilliseconds) }
        return properties
    }
}

extension SettingsResolver {
    /// `fetchWaitMax` (1 ms to 10 s); setting it and `kafka.fetch.wait.max.ms` both is a conflict.
    mutating func resolveFetchWait(_ settings: inout WorkerSettings) throws(SettingsError) {
        guard let found = try find(.fetchWaitMax) else { return }
        let wait = try found.duration()
        guard wait >= .milliseconds(1), wait <= .seconds(10) else {
            throw found.error("fetchWaitMax must be 1ms to 10s")
        }
        guard settings.kafkaProperties["fetch.wait.max.ms"] == nil else {
            throw found.error("set fetchWaitMax or kafka.fetch.wait.max.ms, not both", code: .conflict)
        }
        settings.fetchWaitMax = wait
    }
}
