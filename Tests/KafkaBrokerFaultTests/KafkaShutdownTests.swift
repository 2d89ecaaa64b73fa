import Kafka
import Testing
import KafkaTestSupport

/// A client told to stop returns within its bound whatever the cluster does: librdkafka's consumer close and
/// producer flush otherwise wait for an unreachable cluster (the close about a session timeout, or for ever
/// with a cluster that stopped answering). Bounds are generous: they only need to tell "bounded" from
/// "waits for the cluster".
@Suite struct KafkaShutdownTests {
    /// A member holding stored offsets, its broker down: the close cannot commit or leave the group, and the
    /// old `run()` waited for librdkafka (the session timeout, 10 s here). Now it returns after `closeTimeout`.
    @Test func consumerRunReturnsWithinItsCloseTimeoutWithTheBrokerDown() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("close")
        try cluster.createTopic(topic, partitions: 2)
        var configuration = TestSupport.consumerConfiguration(cluster, group: TestSupport.uniqueName("g"), topic: topic)
        configuration.sessionTimeout = .seconds(10)
        configuration.autoCommitInterval = .seconds(60)  // the stored offset waits for the close's commit
        configuration.closeTimeout = .seconds(1)
        let consumer = try KafkaConsumer(configuration: configuration, logger: TestSupport.logger)
        let producer = try TestSupport.producer(cluster)
        let running = Task { try await consumer.run() }
        _ = try await TestSupport.withRunning(producers: [producer]) {
            try await TestSupport.sendAll(producer, [KafkaProducerMessage(topic: topic, key: "k", value: "v")])
        }
        let read = try await TestSupport.read(consumer, count: 1)
        #expect(read.count == 1)

        try cluster.setBrokerDown(1)
        try await Task.sleep(for: .milliseconds(300))
        let stopped = ContinuousClock.now
        consumer.triggerGracefulShutdown()
        try await running.value
        let took = ContinuousClock.now - stopped
        #expect(took < .seconds(5), "run() took \(took) after the stop with the broker down")
        // The reader's sequence has ended too.
        var iterator = consumer.messages.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    /// A send waiting for reports from a broker that is down (up to the message timeout, two minutes) returns
    /// at once after `failPendingDeliveries()`, failed with `shutdown`; so does every later send.
    @Test func failPendingDeliveriesReleasesSendsWaitingForAnUnreachableCluster() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("purge")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)
        try await TestSupport.withRunning(producers: [producer]) {
            try await TestSupport.sendAll(producer, [KafkaProducerMessage(topic: topic, key: "k", value: "warm-up")])
            try cluster.setBrokerDown(1)
            async let waiting = producer.send([
                KafkaProducerMessage(topic: topic, key: "k", value: "a"), KafkaProducerMessage(topic: topic, key: "k", value: "b"),
            ])
            try await Task.sleep(for: .milliseconds(500))
            let failed = ContinuousClock.now
            producer.failPendingDeliveries()
            let reports = await waiting
            let took = ContinuousClock.now - failed
            // Without the purge the send waits for the message timeout (120 s). The bound is far from both, so
            // a loaded machine cannot fail it: the purged reports usually take under a second, at times ~5 s
            // (librdkafka 2.0.2 hands purged in-flight messages back from its broker thread).
            #expect(took < .seconds(30), "the waiting send returned \(took) after failPendingDeliveries()")
            for report in reports {
                #expect(throws: KafkaError.self) { try report.get() }
                if case .failure(let error) = report { #expect(error.code == .shutdown) }
            }
            let later = await producer.send([KafkaProducerMessage(topic: topic, key: "k", value: "c")])
            if case .failure(let error)? = later.first {
                #expect(error.code == .shutdown)
            } else {
                Issue.record("a send after failPendingDeliveries() was accepted: \(later)")
            }
        }
    }

    /// A producer told to stop with undelivered messages and the broker down flushes for `flushTimeout`, fails
    /// the rest, and returns; the waiting send learns its messages failed.
    @Test func producerRunReturnsAfterItsFlushTimeoutWithTheBrokerDown() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("flush")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(client: TestSupport.client(cluster), flushTimeout: .seconds(1)),
            logger: TestSupport.logger)
        let running = Task { try await producer.run() }
        try await TestSupport.sendAll(producer, [KafkaProducerMessage(topic: topic, key: "k", value: "warm-up")])
        try cluster.setBrokerDown(1)
        async let waiting = producer.send([KafkaProducerMessage(topic: topic, key: "k", value: "undelivered")])
        try await Task.sleep(for: .milliseconds(300))
        let stopped = ContinuousClock.now
        producer.triggerGracefulShutdown()
        try await running.value
        let reports = await waiting
        let took = ContinuousClock.now - stopped
        // flushTimeout 1 s + purged reports 1 s + the thread's end 1 s; the old fixed 10 s flush and 5 s of
        // polling took ~15 s.
        #expect(took < .seconds(10), "run() and the send took \(took) after the stop with the broker down")
        if case .failure(let error)? = reports.first {
            #expect(error.code == .shutdown)
        } else {
            Issue.record("the undelivered message was reported delivered: \(reports)")
        }
    }
}
