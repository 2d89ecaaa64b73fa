import Kafka
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import KafkaTestSupport

/// `messages.endingOnGracefulShutdown()` in a real service group on an embedded cluster: the reader's loop ends
/// (without an error) when the group shuts down gracefully, whether it is waiting for messages or busy with one,
/// and takes no message after the shutdown began; the consumer goes on until its own turn.
@Suite struct KafkaMessagesGracefulEndTests {
    /// Reads until the sequence ends; `holdFirst` keeps the first message until graceful shutdown has begun.
    private final class Reader: Service, Sendable {
        let consumer: KafkaConsumer
        let holdFirst: Bool
        let offsets = Mutex<[Int64]>([])
        let ended = Mutex<String?>(nil)

        init(consumer: KafkaConsumer, holdFirst: Bool) {
            self.consumer = consumer
            self.holdFirst = holdFirst
        }

        func run() async throws {
            do {
                for try await message in consumer.messages.endingOnGracefulShutdown() {
                    let first = offsets.withLock { offsets in
                        offsets.append(message.offset)
                        return offsets.count == 1
                    }
                    while first, holdFirst, !Task.isShuttingDownGracefully {
                        try await Task.sleep(for: .milliseconds(10))
                    }
                }
                ended.withLock { $0 = "end" }
            } catch {
                ended.withLock { $0 = "\(error)" }
            }
        }
    }

    private func runGroup(holdFirst: Bool, messages: Int, waitFor count: Int) async throws -> Reader {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("graceful-end")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)
        try await TestSupport.withRunning(producers: [producer]) {
            let batch = (0..<messages).map { KafkaProducerMessage(topic: topic, key: "k", value: "m\($0)") }
            try await TestSupport.sendAll(producer, batch)
        }
        let consumer = try TestSupport.consumer(cluster, topic: topic)
        let reader = Reader(consumer: consumer, holdFirst: holdFirst)
        var configuration = ServiceGroupConfiguration(services: [consumer, reader], logger: TestSupport.logger)
        // A reader that does not end by itself is cancelled after this (and the test fails on its error).
        configuration.maximumGracefulShutdownDuration = .seconds(20)
        let group = ServiceGroup(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let deadline = ContinuousClock.now + .seconds(60)
            while reader.offsets.withLock({ $0.count }) < count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        return reader
    }

    @Test func aReaderWaitingForMessagesEndsOnGracefulShutdown() async throws {
        let reader = try await runGroup(holdFirst: false, messages: 3, waitFor: 3)
        #expect(reader.offsets.withLock { $0 } == [0, 1, 2])
        #expect(reader.ended.withLock { $0 } == "end")
    }

    @Test func aBusyReaderTakesNoMessageAfterGracefulShutdownBegan() async throws {
        let reader = try await runGroup(holdFirst: true, messages: 3, waitFor: 1)
        #expect(reader.offsets.withLock { $0 } == [0])
        #expect(reader.ended.withLock { $0 } == "end")
    }
}
