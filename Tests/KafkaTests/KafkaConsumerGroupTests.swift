import Kafka
import Synchronization
import Testing
import KafkaTestSupport

/// Group membership, rebalances and offsets, against the embedded cluster.
@Suite struct KafkaConsumerGroupTests {
    @Test func twoConsumersSplitPartitionsAndTheSurvivorTakesOverWithoutLoss() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("group")
        try cluster.createTopic(topic, partitions: 6)
        let group = TestSupport.uniqueName("g")
        let events = Locked<[String: [KafkaRebalanceEvent]]>([:])
        func consumer(_ name: String) throws -> KafkaConsumer {
            try TestSupport.consumer(cluster, group: group, topic: topic) { event in events.withLock { $0[name, default: []].append(event) } }
        }
        let first = try consumer("first")
        let second = try consumer("second")
        let producer = try TestSupport.producer(cluster)
        let count = 3_000
        let seen = Locked<[String: Int]>([:])

        try await TestSupport.withRunning([second], producers: [producer]) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await first.run() }
                for member in [first, second] {
                    tasks.addTask {
                        for try await message in member.messages {
                            seen.withLock { $0[message.valueString ?? "", default: 0] += 1 }
                            try? member.storeOffset(for: message)
                        }
                    }
                }
                // A failure below must still stop both members, or the group would wait for them forever.
                do {
                    // Both members hold partitions before anything is sent. Generous: librdkafka 2.0.2's mock
                    // coordinator ends a join round when the leader syncs, so a follower that syncs late on a loaded
                    // machine rejoins (another ~3 s round), sometimes more than once.
                    try await eventually(within: .seconds(90)) { first.assignment.count + second.assignment.count == 6 && !first.assignment.isEmpty && !second.assignment.isEmpty }
                    #expect(first.assignment.isDisjoint(with: second.assignment))

                    let half = (0..<count / 2).map { KafkaProducerMessage(topic: topic, key: "k\($0 % 31)", value: "m\($0)") }
                    try await TestSupport.sendAll(producer, half)
                    try await eventually { seen.withLock { $0.count } == count / 2 }

                    // The first member leaves cleanly: the second takes all six partitions.
                    first.triggerGracefulShutdown()
                    try await eventually { second.assignment.count == 6 }
                    let rest = (count / 2..<count).map { KafkaProducerMessage(topic: topic, key: "k\($0 % 31)", value: "m\($0)") }
                    try await TestSupport.sendAll(producer, rest)
                    try await eventually { seen.withLock { $0.count } == count }
                } catch {
                    first.triggerGracefulShutdown()
                    second.triggerGracefulShutdown()
                    throw error
                }
                second.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
        let counts = seen.withLock { $0 }
        #expect(Set(counts.keys) == Set((0..<count).map { "m\($0)" }), "a message was lost")
        let revokedBeforeLeaving = events.withLock { $0["first"] ?? [] }.contains {
            if case .revoked = $0 { return true } else { return false }
        }
        #expect(revokedBeforeLeaving, "the leaving member was told of its revoked partitions")
    }

    @Test func noOffsetIsCommittedBeforeTheCallerMarksTheMessageDone() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("offsets")
        try cluster.createTopic(topic, partitions: 1)
        let group = TestSupport.uniqueName("g")
        let partition = KafkaTopicPartition(topic: topic, partition: 0)
        let producer = try TestSupport.producer(cluster)
        let configuration = TestSupport.consumerConfiguration(cluster, group: group, topic: topic)
        let consumer = try KafkaConsumer(configuration: configuration, logger: TestSupport.logger)

        try await TestSupport.withRunning([consumer], producers: [producer]) {
            try await TestSupport.sendAll(producer, (0..<100).map { KafkaProducerMessage(topic: topic, key: "k", value: "m\($0)") })
            let read = try await TestSupport.read(consumer, count: 100, storeOffsets: false)
            #expect(read.count == 100)
            // Several auto-commit intervals pass: nothing was marked done, so nothing is committed.
            try await Task.sleep(for: .seconds(1))
            try await consumer.commit()
            #expect(try await consumer.committedOffsets(for: [partition]).isEmpty)
            // Marking the 40th done commits exactly up to it.
            try consumer.storeOffset(for: read[39])
            try await consumer.commit()
            #expect(try await consumer.committedOffsets(for: [partition]) == [partition: 40])
        }

        // A new member of the group starts right after the last message marked done.
        let next = try KafkaConsumer(configuration: configuration, logger: TestSupport.logger)
        let rest = try await TestSupport.withRunning([next]) { try await TestSupport.read(next, count: 60) }
        #expect(rest.first?.offset == 40)
        #expect(rest.map(\.valueString) == (40..<100).map { "m\($0)" })
    }

    @Test func pausedPartitionDeliversNothingUntilResumed() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestSupport.logger)
        let topic = TestSupport.uniqueName("pause")
        try cluster.createTopic(topic, partitions: 2)
        let producer = try TestSupport.producer(cluster)
        let consumer = try TestSupport.consumer(cluster, topic: topic)
        let p0 = KafkaTopicPartition(topic: topic, partition: 0)
        let seen = Locked<[Int32: Int]>([:])
        try await TestSupport.withRunning([consumer], producers: [producer]) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    for try await message in consumer.messages {
                        seen.withLock { $0[message.partition, default: 0] += 1 }
                    }
                }
                try await eventually { consumer.assignment.count == 2 }
                consumer.pause([p0])
                #expect(consumer.isPaused(p0))
                for partition in [Int32(0), 1] {
                    try await TestSupport.sendAll(producer, (0..<10).map { _ in KafkaProducerMessage(topic: topic, partition: partition, key: nil, value: "x") })
                }
                try await eventually { seen.withLock { $0[1] } == 10 }
                try await Task.sleep(for: .seconds(1))
                #expect(seen.withLock { $0[0] } == nil, "a paused partition delivered messages")
                consumer.resume([p0])
                try await eventually { seen.withLock { $0[0] } == 10 }
                consumer.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }
}
