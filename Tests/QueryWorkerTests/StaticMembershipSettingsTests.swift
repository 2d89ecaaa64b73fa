import Kafka
@testable import QueryWorker
import Testing

/// `staticMembership`: off by default (no `group.instance.id`); on, the consumer's instance id is the worker id,
/// and an instance id passed through beside it is refused.
@Suite struct StaticMembershipSettingsTests {
    @Test func offByDefaultOnTheInstanceIsTheWorkerID() throws {
        let plain = try WorkerSettings.load(environment: ["QUERY_WORKER_WORKER_ID": "pod-0"]).settings
        #expect(!plain.staticMembership)
        #expect(plain.consumerConfiguration(closeTimeout: .seconds(1)).client.additionalProperties["group.instance.id"] == nil)

        let on = try WorkerSettings.load(
            environment: ["QUERY_WORKER_STATIC_MEMBERSHIP": "true", "QUERY_WORKER_WORKER_ID": "pod-0"]
        ).settings
        #expect(on.staticMembership)
        #expect(on.consumerConfiguration(closeTimeout: .seconds(1)).client.additionalProperties["group.instance.id"] == "pod-0")
        // The producer is no group member: it never carries the instance id.
        #expect(on.producerConfiguration(flushTimeout: .seconds(1)).client.additionalProperties["group.instance.id"] == nil)
    }

    @Test func anInstanceIDPassedThroughBesideItIsRefused() {
        #expect {
            _ = try WorkerSettings.load(flags: ["staticMembership": "true", "kafka.group.instance.id": "x"], environment: [:])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.key == "staticMembership" && error.message.contains("kafka.group.instance.id")
        }
    }
}
