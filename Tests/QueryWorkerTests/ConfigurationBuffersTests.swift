import Kafka
import Logging
@testable import QueryWorker
import Testing

/// The read-ahead and producer-queue settings: their defaults, their checks, and that they reach librdkafka
/// through the clients the worker builds (read back from the running clients' configuration).
@Suite("Settings: read-ahead and producer queue bounds")
struct ConfigurationBuffersTests {
    static let logger = Logger(label: "buffers-tests") { _ in SwiftLogNoOpLogHandler() }

    @Test("bounded defaults reach the consumer and the producer")
    func defaults() throws {
        let settings = try WorkerSettings.load(environment: ["QUERY_WORKER_BOOTSTRAP_SERVERS": "127.0.0.1:1"]).settings
        #expect(settings.buffers.readAheadMessages == 10_000 && settings.buffers.readAheadBytes == 4 << 20)
        #expect(settings.buffers.producerQueueMessages == 10_000 && settings.buffers.producerQueueBytes == 32 << 20)
        let consumer = try KafkaConsumer(configuration: settings.consumerConfiguration(closeTimeout: .seconds(1)), logger: Self.logger)
        #expect(consumer.effectiveProperty("queued.min.messages") == "10000")
        #expect(consumer.effectiveProperty("queued.max.messages.kbytes") == "4096")
        #expect(consumer.effectiveProperty("fetch.max.bytes") == "4194304")
        let producer = try KafkaProducer(configuration: settings.producerConfiguration(flushTimeout: .seconds(1)), logger: Self.logger)
        #expect(producer.effectiveProperty("queue.buffering.max.messages") == "10000")
        #expect(producer.effectiveProperty("queue.buffering.max.kbytes") == "32768")
        #expect(producer.effectiveProperty("message.max.bytes") == "\((1 << 20) + 16_384)")
    }

    @Test("values from the environment reach librdkafka")
    func fromEnvironment() throws {
        let settings = try WorkerSettings.load(environment: [
            "QUERY_WORKER_BOOTSTRAP_SERVERS": "127.0.0.1:1", "QUERY_WORKER_READ_AHEAD_MESSAGES": "250",
            "QUERY_WORKER_READ_AHEAD_BYTES": "2MiB", "QUERY_WORKER_PRODUCER_QUEUE_MESSAGES": "500",
            "QUERY_WORKER_PRODUCER_QUEUE_BYTES": "8MiB",
        ]).settings
        let consumer = try KafkaConsumer(configuration: settings.consumerConfiguration(closeTimeout: .seconds(1)), logger: Self.logger)
        #expect(consumer.effectiveProperty("queued.min.messages") == "250")
        #expect(consumer.effectiveProperty("queued.max.messages.kbytes") == "2048")
        #expect(consumer.effectiveProperty("fetch.max.bytes") == "\(2 << 20)")
        let producer = try KafkaProducer(configuration: settings.producerConfiguration(flushTimeout: .seconds(1)), logger: Self.logger)
        #expect(producer.effectiveProperty("queue.buffering.max.messages") == "500")
        #expect(producer.effectiveProperty("queue.buffering.max.kbytes") == "8192")
    }

    @Test("a librdkafka property passed through wins over the setting")
    func passThroughWins() throws {
        let settings = try WorkerSettings.load(environment: [
            "QUERY_WORKER_BOOTSTRAP_SERVERS": "127.0.0.1:1", "QUERY_WORKER_KAFKA_QUEUED_MIN_MESSAGES": "100000",
            "QUERY_WORKER_READ_AHEAD_MESSAGES": "250",
        ]).settings
        let consumer = try KafkaConsumer(configuration: settings.consumerConfiguration(closeTimeout: .seconds(1)), logger: Self.logger)
        #expect(consumer.effectiveProperty("queued.min.messages") == "100000")
    }

    @Test("a producer queue smaller than one result part is refused; the default grows with maxResultBytes")
    func producerQueueHoldsAResultPart() throws {
        #expect {
            _ = try WorkerSettings.load(environment: ["QUERY_WORKER_PRODUCER_QUEUE_BYTES": "1MiB"])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.code == .conflict && error.key == "producerQueueBytes" && error.message.contains("maxResultBytes (1048576)")
        }
        let exact = try WorkerSettings.load(environment: ["QUERY_WORKER_PRODUCER_QUEUE_BYTES": "\((1 << 20) + 16_384)"]).settings
        #expect(exact.buffers.producerQueueBytes == (1 << 20) + 16_384)
        let large = try WorkerSettings.load(environment: ["QUERY_WORKER_MAX_RESULT_BYTES": "32MiB"]).settings
        #expect(large.buffers.producerQueueBytes == 2 * ((32 << 20) + 16_384))
    }

    @Test("out-of-range values are refused with the key named")
    func ranges() {
        for (variable, value, key) in [
            ("QUERY_WORKER_READ_AHEAD_MESSAGES", "0", "readAheadMessages"),
            ("QUERY_WORKER_READ_AHEAD_BYTES", "3GiB", "readAheadBytes"),
            ("QUERY_WORKER_PRODUCER_QUEUE_MESSAGES", "-1", "producerQueueMessages"),
        ] {
            #expect {
                _ = try WorkerSettings.load(environment: [variable: value])
            } throws: { error in
                (error as? SettingsError)?.key == key
            }
        }
    }
}
