import Kafka
import Synchronization
import Testing
import KafkaTestSupport

/// `send(_:queued:whenDelivered:)`: the sender returns once its messages are queued, and the reports reach a
/// handler on the producer's thread, after `queued`, once per send, one per message.
@Suite struct KafkaProducerReportHandlerTests {
    /// What a handler saw: its reports, whether `queued` had run before it, and how often it was called.
    final class Seen: Sendable {
        let queuedBeforeReports = Atomic<Bool>(false)
        let queued = Atomic<Bool>(false)
        let calls = Atomic<Int>(0)
        let reports = Mutex<[Result<KafkaDeliveryReport, KafkaError>]>([])
        private let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)
        private let done = Atomic<Bool>(false)

        func handle(_ reports: [Result<KafkaDeliveryReport, KafkaError>]) {
            queuedBeforeReports.store(queued.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
            self.reports.withLock { $0 = reports }
            calls.add(1, ordering: .sequentiallyConsistent)
            done.store(true, ordering: .sequentiallyConsistent)
            waiter.withLock { waiter in
                defer { waiter = nil }
                return waiter
            }?.resume()
        }

        /// Returns once the handler ran.
        func waitForReports() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ran = waiter.withLock { waiter -> Bool in
                    if done.load(ordering: .sequentiallyConsistent) { return true }
                    waiter = continuation
                    return false
                }
                if ran { continuation.resume() }
            }
        }
    }

    @Test func reportsReachTheHandlerAfterQueuedOnePerMessageInOrder() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("handler")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)
        let seen = Seen()
        try await TestSupport.withRunning(producers: [producer]) {
            let messages = (0..<5).map { KafkaProducerMessage(topic: topic, partition: 0, key: "k", value: "v\($0)") }
            await producer.send(messages, queued: { seen.queued.store(true, ordering: .sequentiallyConsistent) }) { reports in
                seen.handle(reports)
            }
            await seen.waitForReports()
        }
        let reports = seen.reports.withLock { $0 }
        let offsets = try reports.map { try $0.get().offset }
        #expect(offsets == [0, 1, 2, 3, 4])
        #expect(try reports.allSatisfy { try $0.get().topic == topic })
        let queuedFirst = seen.queuedBeforeReports.load(ordering: .sequentiallyConsistent)
        #expect(queuedFirst)
        #expect(seen.calls.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test func aClosedProducerReportsEveryMessageFailedToTheHandlerWithinTheCall() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("handler-closed")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)
        producer.failPendingDeliveries()  // from now on every send fails with `shutdown`
        let seen = Seen()
        let messages = (0..<3).map { KafkaProducerMessage(topic: topic, key: "k", value: "v\($0)") }
        await producer.send(messages, queued: { seen.queued.store(true, ordering: .sequentiallyConsistent) }) { reports in
            seen.handle(reports)
        }
        // No poll thread runs here: the handler ran inside the call, after `queued`.
        #expect(seen.calls.load(ordering: .sequentiallyConsistent) == 1)
        let queuedFirst = seen.queuedBeforeReports.load(ordering: .sequentiallyConsistent)
        #expect(queuedFirst)
        let codes = seen.reports.withLock { $0 }.map { result -> KafkaError.Code? in
            if case .failure(let error) = result { error.code } else { nil }
        }
        #expect(codes == [.shutdown, .shutdown, .shutdown])
    }
}
