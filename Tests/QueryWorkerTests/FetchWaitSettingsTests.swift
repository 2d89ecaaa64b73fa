import Kafka
@testable import QueryWorker
import Testing

/// `fetchWaitMax`: unset, the wait is chosen by the cluster at start; set, it wins;
/// it reaches the consumer's properties only, never the producer's.
@Suite struct FetchWaitSettingsTests {
    @Test func unsetTheWaitIsChosenByTheKindOfCluster() throws {
        let settings = try WorkerSettings.load(environment: [:]).settings
        #expect(settings.fetchWaitMax == nil && settings.fetchWaitNeedsCluster)
        #expect(settings.consumerKafkaProperties["fetch.wait.max.ms"] == nil)
        let embedded = settings.resolvingFetchWait(clusterIsEmbedded: true)
        #expect(embedded.consumerKafkaProperties["fetch.wait.max.ms"] == "2")
        let real = settings.resolvingFetchWait(clusterIsEmbedded: false)
        #expect(real.consumerKafkaProperties["fetch.wait.max.ms"] == "500")
        #expect(real.kafkaProperties["fetch.wait.max.ms"] == nil, "the producer's properties stay as configured")
    }

    @Test func aConfiguredWaitWinsOverTheClustersKind() throws {
        let loaded = try WorkerSettings.load(environment: ["QUERY_WORKER_FETCH_WAIT_MAX": "20ms"])
        #expect(loaded.settings.fetchWaitMax == .milliseconds(20) && !loaded.settings.fetchWaitNeedsCluster)
        #expect(loaded.settings.resolvingFetchWait(clusterIsEmbedded: true).consumerKafkaProperties["fetch.wait.max.ms"] == "20")
        let property = try WorkerSettings.load(flags: ["kafka.fetch.wait.max.ms": "100"], environment: [:]).settings
        #expect(!property.fetchWaitNeedsCluster)
        #expect(property.resolvingFetchWait(clusterIsEmbedded: true).consumerKafkaProperties["fetch.wait.max.ms"] == "100")
    }

    @Test(arguments: [
        (["fetchWaitMax": "0ms"], "longer than zero"), (["fetchWaitMax": "11s"], "1ms to 10s"),
        (["fetchWaitMax": "10ms", "kafka.fetch.wait.max.ms": "10"], "not both"),
    ])
    func badOrConflictingWaitsAreRefusedNamingTheSetting(_ flags: [String: String], _ fragment: String) {
        #expect {
            _ = try WorkerSettings.load(flags: flags, environment: [:])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.key == "fetchWaitMax" && error.message.contains(fragment)
        }
    }
}
