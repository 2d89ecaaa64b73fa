import Kafka
import Testing
import KafkaTestSupport

/// Faults injected into the embedded cluster: failed produce requests and a broker going down and up.
@Suite struct KafkaFaultTests {
    @Test func producerDeliveryFailureSurfacesAsATypedError() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("fail")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)  // idempotent, as in production
        try await TestSupport.withRunning(producers: [producer]) {
            // Warm up so that metadata is known, then make the next produce request fail.
            try await producer.send(KafkaProducerMessage(topic: topic, key: "k", value: "ok"))
            cluster.pushRequestErrors(.produce, [.messageTooLarge])
            let error = await #expect(throws: KafkaError.self) {
                try await producer.send(KafkaProducerMessage(topic: topic, key: "k", value: "refused"))
            }
            #expect(error?.code == .messageTooLarge)
            #expect(error?.rdKafkaName == "MSG_SIZE_TOO_LARGE")
            #expect(error?.isFatal == false)
            #expect(error?.isRetryable == false)
            // The producer goes on working after the failure.
            let report = try await producer.send(KafkaProducerMessage(topic: topic, key: "k", value: "after"))
            #expect(report.offset >= 1)
        }
    }

    @Test func brokerDownAndUpLosesNothing() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("downup")
        try cluster.createTopic(topic, partitions: 3)
        let producer = try TestSupport.producer(cluster)
        let consumer = try TestSupport.consumer(cluster, topic: topic)
        let total = 1_000
        let received = try await TestSupport.withRunning([consumer], producers: [producer]) {
            let firstHalf = (0..<total / 2).map { KafkaProducerMessage(topic: topic, key: "k\($0 % 7)", value: "m\($0)") }
            try await TestSupport.sendAll(producer, firstHalf)
            try cluster.setBrokerDown(1)
            async let secondHalf = producer.send(
                (total / 2..<total).map { KafkaProducerMessage(topic: topic, key: "k\($0 % 7)", value: "m\($0)") }
            )
            try await Task.sleep(for: .seconds(2))
            try cluster.setBrokerUp(1)
            let reports = await secondHalf
            #expect(reports.allSatisfy { (try? $0.get()) != nil }, "a message sent while the broker was down failed")
            return try await TestSupport.read(consumer, count: total)
        }
        let values = received.compactMap(\.valueString)
        #expect(Set(values) == Set((0..<total).map { "m\($0)" }))
        #expect(values.count == total, "duplicates after the broker came back")
    }

    /// The clients' connectivity follows the broker: "all brokers down" is recorded when it goes, and cleared
    /// by the next sign of life (a delivery report, a fetched message, an answered probe) when it comes back.
    /// Package API, read by the worker's `waiting for the Kafka cluster` warning and readiness.
    @Test func connectivityFollowsTheBrokerDownAndUp() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("connectivity")
        try cluster.createTopic(topic, partitions: 1)
        let producer = try TestSupport.producer(cluster)
        let consumer = try TestSupport.consumer(cluster, topic: topic)
        try await TestSupport.withRunning([consumer], producers: [producer]) {
            try await TestSupport.sendAll(producer, [KafkaProducerMessage(topic: topic, key: "k", value: "before")])
            _ = try await TestSupport.read(consumer, count: 1)
            #expect(consumer.hasJoinedGroup)
            #expect(producer.connectivity.isConnected && consumer.connectivity.isConnected)

            try cluster.setBrokerDown(1)
            try await eventually { !producer.connectivity.isConnected && !consumer.connectivity.isConnected }
            #expect(producer.connectivity.lastError?.code == "_ALL_BROKERS_DOWN" || producer.connectivity.lastError?.code == "_TRANSPORT")
            #expect(await producer.probeConnectivity(timeout: .milliseconds(500)) == false)

            try cluster.setBrokerUp(1)
            try await TestSupport.sendAll(producer, [KafkaProducerMessage(topic: topic, key: "k", value: "after")])
            #expect(producer.connectivity.isConnected, "a delivery report clears it")
            try await eventually { await consumer.probeConnectivity(timeout: .seconds(2)) }
            #expect(consumer.connectivity.isConnected)
            #expect(consumer.connectivity.allBrokersDownSince == nil)
        }
    }

    /// A member whose session times out while the broker is away loses its partitions, and the offsets it
    /// stored since the last commit can no longer be committed. When it gets them back, it starts after what
    /// it had stored (the group's committed offset being behind), not from the last commit: the work it had
    /// finished is not read again. Without this the partition would be read again from the start here (nothing
    /// was ever committed).
    @Test func aMemberThatLostItsPartitionsResumesAfterWhatItStored() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("resume")
        try cluster.createTopic(topic, partitions: 1)
        let partition = KafkaTopicPartition(topic: topic, partition: 0)
        let producer = try TestSupport.producer(cluster)
        let events = Locked<[String]>([])
        let consumer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                client: TestSupport.client(cluster), groupID: TestSupport.uniqueName("g"), topics: [topic],
                sessionTimeout: .seconds(3), heartbeatInterval: .milliseconds(500),
                autoCommitInterval: .seconds(600), revokeTimeout: .seconds(5)),
            logger: TestSupport.logger
        ) { event in
            let name = switch event {
            case .assigned: "assigned"
            case .revoked: "revoked"
            case .lost: "lost"
            }
            events.withLock { $0.append(name) }
        }
        let after = try await TestSupport.withRunning([consumer], producers: [producer]) {
            try await TestSupport.sendAll(producer, (0..<100).map { KafkaProducerMessage(topic: topic, key: "k", value: "m\($0)") })
            let first = try await TestSupport.read(consumer, count: 100, storeOffsets: false)
            #expect(first.last?.offset == 99)
            try consumer.storeOffsets([partition: 100])

            try cluster.setBrokerDown(1)
            try await eventually(within: .seconds(60)) { events.withLock { $0.contains("lost") } }
            try cluster.setBrokerUp(1)
            try await eventually(within: .seconds(60)) { events.withLock { $0.filter { $0 == "assigned" }.count } >= 2 }
            try await TestSupport.sendAll(producer, (100..<110).map { KafkaProducerMessage(topic: topic, key: "k", value: "m\($0)") })
            return try await TestSupport.read(consumer, count: 10, storeOffsets: false)
        }
        #expect(after.first?.offset == 100, "read again from \(after.first?.offset ?? -1)")
        #expect(after.compactMap(\.valueString) == (100..<110).map { "m\($0)" })
    }
}
