import Kafka
@testable import QueryWorker
import Testing

/// `exactlyOnce` and its two companions: off by default; on, the producer gets its `transactional.id` (and a
/// message timeout librdkafka accepts beside the transaction timeout) and the consumer commits nothing itself;
/// the librdkafka properties it owns cannot be passed through beside it.
@Suite struct ExactlyOnceSettingsTests {
    @Test func offByDefaultTheClientsAreAsBefore() throws {
        let settings = try WorkerSettings.load(environment: [:]).settings
        #expect(!settings.exactlyOnce.enabled)
        #expect(settings.consumerConfiguration(closeTimeout: .seconds(1)).autoCommit)
        #expect(settings.producerConfiguration(flushTimeout: .seconds(1)).client.additionalProperties["transactional.id"] == nil)
    }

    @Test func onTheProducerIsTransactionalAndTheConsumerCommitsNothing() throws {
        let settings = try WorkerSettings.load(
            environment: ["QUERY_WORKER_EXACTLY_ONCE": "true", "QUERY_WORKER_GROUP_ID": "g", "QUERY_WORKER_WORKER_ID": "pod-0"]
        ).settings
        let producer = settings.producerConfiguration(flushTimeout: .seconds(1))
        #expect(producer.client.additionalProperties["transactional.id"] == "g.pod-0")
        #expect(producer.client.additionalProperties["transaction.timeout.ms"] == "60000")
        #expect(producer.messageTimeout <= .seconds(60), "librdkafka refuses a message timeout above the transaction's")
        let consumer = settings.consumerConfiguration(closeTimeout: .seconds(1))
        #expect(!consumer.autoCommit)
        #expect(consumer.client.additionalProperties["isolation.level"] == "read_committed")

        let named = try WorkerSettings.load(flags: [
            "exactlyOnce": "yes", "transactionalId": "eu-worker-7", "transactionInterval": "200ms",
            "kafka.transaction.timeout.ms": "15000",
        ], environment: [:]).settings
        #expect(named.producerConfiguration(flushTimeout: .seconds(1)).client.additionalProperties["transactional.id"] == "eu-worker-7")
        #expect(named.producerConfiguration(flushTimeout: .seconds(1)).messageTimeout == .seconds(15))
        #expect(named.exactlyOnce.interval == .milliseconds(200))
    }

    @Test(arguments: [
        (["exactlyOnce": "true", "kafka.isolation.level": "read_uncommitted"], "exactlyOnce", "kafka.isolation.level"),
        (["exactlyOnce": "true", "kafka.transactional.id": "x"], "exactlyOnce", "transactionalId"),
        (["transactionInterval": "0ms"], "transactionInterval", "longer than zero"),
        (["transactionInterval": "11s"], "transactionInterval", "1ms and 10s"),
    ])
    func conflictsAndBadValuesAreRefusedNamingTheSetting(_ flags: [String: String], _ key: String, _ fragment: String) {
        #expect {
            _ = try WorkerSettings.load(flags: flags, environment: [:])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.key == key && error.message.contains(fragment)
        }
    }
}
