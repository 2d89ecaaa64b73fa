import Kafka
import Testing
import KafkaTestSupport

/// The revoke handshake: the caller hears of revoked partitions before they are given up.
@Suite struct KafkaRebalanceTests {
    @Test func offsetsStoredWhileHandlingARevocationReachTheNextOwner() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("revoke")
        try cluster.createTopic(topic, partitions: 1)
        let group = TestSupport.uniqueName("g")
        let partition = KafkaTopicPartition(topic: topic, partition: 0)
        let producer = try TestSupport.producer(cluster)
        let member = Locked<KafkaConsumer?>(nil)
        let storeResult = Locked<Bool?>(nil)
        let consumer = try TestSupport.consumer(cluster, group: group, topic: topic) { event in
            // Finishing the work for revoked partitions: store where it got to before the handover.
            guard case .revoked(let partitions, _) = event, partitions.contains(partition) else { return }
            let stored = (try? member.withLock { $0 }?.storeOffsets([partition: 50])) != nil
            storeResult.withLock { $0 = stored }
        }
        member.withLock { $0 = consumer }

        try await TestSupport.withRunning([consumer], producers: [producer]) {
            try await TestSupport.sendAll(producer, (0..<80).map { KafkaProducerMessage(topic: topic, key: "k", value: "m\($0)") })
            _ = try await TestSupport.read(consumer, count: 80, storeOffsets: false)
        }
        #expect(storeResult.withLock { $0 } == true, "storing offsets inside the revoke handler failed")
        member.withLock { $0 = nil }

        let next = try TestSupport.consumer(cluster, group: group, topic: topic)
        let rest = try await TestSupport.withRunning([next]) { try await TestSupport.read(next, count: 30) }
        #expect(rest.first?.offset == 50)
    }

    @Test func aRevokeHandlerThatDoesNotFinishIsCutOffAtTheDeadline() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("deadline")
        try cluster.createTopic(topic, partitions: 1)
        var configuration = TestSupport.consumerConfiguration(cluster, group: TestSupport.uniqueName("g"), topic: topic)
        configuration.revokeTimeout = .seconds(1)
        let cancelled = Locked(false)
        let consumer = try KafkaConsumer(configuration: configuration, logger: TestSupport.logger) { event in
            guard case .revoked = event else { return }
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                cancelled.withLock { $0 = true }
            }
        }
        try await TestSupport.withRunning([consumer]) {
            try await eventually { consumer.assignment.count == 1 }
        }
        // The handler's 60 s sleep was cancelled: it was cut off, not waited for.
        try await eventually { cancelled.withLock { $0 } }
    }
}

@Suite struct KafkaProducerBackpressureTests {
    @Test func aFullLocalQueueMakesSendWaitInsteadOfGrowing() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("backpressure")
        try cluster.createTopic(topic, partitions: 1)
        let configuration = KafkaProducerConfiguration(client: TestSupport.client(cluster), queueMaxMessages: 50)
        let producer = try KafkaProducer(configuration: configuration, logger: TestSupport.logger)
        try await TestSupport.withRunning(producers: [producer]) {
            try await producer.send(KafkaProducerMessage(topic: topic, key: "k", value: "warm-up"))
            try cluster.setBrokerDown(1)
            let maxQueued = Locked(0)
            async let reports = producer.send((0..<500).map { KafkaProducerMessage(topic: topic, key: "k", value: "m\($0)") })
            for _ in 0..<20 {
                let queued = producer.queuedCount
                maxQueued.withLock { $0 = max($0, queued) }
                try await Task.sleep(for: .milliseconds(50))
            }
            try cluster.setBrokerUp(1)
            let delivered = await reports
            #expect(delivered.allSatisfy { (try? $0.get()) != nil })
            #expect(maxQueued.withLock { $0 } <= 50, "the local queue grew past its bound")
            #expect(maxQueued.withLock { $0 } > 0)
        }
    }
}
