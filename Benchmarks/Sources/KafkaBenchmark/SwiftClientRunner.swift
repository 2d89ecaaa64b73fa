import BenchmarkSupport
import Kafka
import Logging

/// The same workload as the C baseline, through the Swift bridge (`Kafka` module) with its default settings.
struct SwiftClientRunner: Sendable {
    let bootstrapServers: String
    let logger: Logger
    /// Messages per `send([...])` call.
    let batchSize: Int
    /// `send` calls in flight at once.
    let concurrency: Int
    /// A consume run that has not read every message by then fails.
    let consumeTimeout: Duration
    /// `KafkaConsumerConfiguration.bufferCapacity`; `nil` keeps the library's default.
    var consumerBufferCapacity: Int? = nil
    /// librdkafka debug contexts for the Swift clients (logged at debug level).
    var debugContexts: String? = nil
    /// Extra librdkafka properties for the consumer (`KafkaClientConfiguration.additionalProperties`).
    var consumerProperties: [String: String] = [:]

    private var client: KafkaClientConfiguration {
        KafkaClientConfiguration(bootstrapServers: [bootstrapServers], clientID: "kafka-bench-swift", debugContexts: debugContexts)
    }

    /// Publishes `count` keyed messages (`key-N`, `size` bytes of value) and waits for every delivery report.
    /// Timed from the first `send` to the last report, like the C side's produce loop plus flush; one warm-up
    /// message is sent and delivered before the timer starts.
    func produce(topic: String, count: Int, size: Int) async throws -> Measurement {
        let producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client), logger: logger)
        let running = Task { try await producer.run() }
        defer { running.cancel() }

        let value = (0..<size).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        // Warm-up, not timed (as on the C side): connect, fetch metadata, acquire the idempotent producer id.
        try await producer.send(KafkaProducerMessage(topic: topic, key: Array("warmup".utf8), value: value))

        let batchSize = max(1, self.batchSize)
        let batches = (count + batchSize - 1) / batchSize
        let workers = max(1, min(concurrency, batches))

        let start = ContinuousClock.now
        let cpuStart = processCPUSeconds()
        let (delivered, failures) = await withTaskGroup(of: (Int, [KafkaError]).self) { group in
            for worker in 0..<workers {
                // Worker w sends batches w, w + workers, w + 2 * workers, ...
                group.addTask {
                    var delivered = 0
                    var failures: [KafkaError] = []
                    for batch in stride(from: worker, to: batches, by: workers) {
                        let range = (batch * batchSize)..<min(count, (batch + 1) * batchSize)
                        var messages: [KafkaProducerMessage] = []
                        messages.reserveCapacity(range.count)
                        for index in range {
                            messages.append(KafkaProducerMessage(topic: topic, key: Array("key-\(index)".utf8), value: value))
                        }
                        for result in await producer.send(messages) {
                            switch result {
                            case .success: delivered += 1
                            case .failure(let error): if failures.count < 5 { failures.append(error) }
                            }
                        }
                    }
                    return (delivered, failures)
                }
            }
            var delivered = 0
            var failures: [KafkaError] = []
            for await (count, errors) in group {
                delivered += count
                failures += errors
            }
            return (delivered, failures)
        }
        let seconds = (ContinuousClock.now - start).seconds
        let cpuSeconds = processCPUSeconds() - cpuStart

        producer.triggerGracefulShutdown()
        try await running.value
        guard delivered == count else {
            throw BenchmarkError("Swift producer delivered \(delivered) of \(count) messages; first errors: \(failures)")
        }
        return Measurement(messages: delivered, bytes: delivered * size, seconds: seconds, cpuSeconds: cpuSeconds)
    }

    /// Reads `count` messages in a new consumer group from the earliest offset, storing each one's offset
    /// (at-least-once). Timed from the first message to the last, so the group join is not counted.
    func consume(topic: String, count: Int, group: String) async throws -> Measurement {
        var client = self.client
        client.additionalProperties = consumerProperties
        var configuration = KafkaConsumerConfiguration(client: client, groupID: group, topics: [topic], autoOffsetReset: .earliest)
        if let consumerBufferCapacity { configuration.bufferCapacity = consumerBufferCapacity }
        let consumer = try KafkaConsumer(configuration: configuration, logger: logger)
        let running = Task { try await consumer.run() }
        let timeout = consumeTimeout
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            consumer.triggerGracefulShutdown()
        }
        defer {
            watchdog.cancel()
            consumer.triggerGracefulShutdown()  // also when the loop throws
        }

        var received = 0
        var bytes = 0
        var checksum: UInt32 = 0
        var first = ContinuousClock.now
        var last = first
        var cpuFirst = 0.0
        for try await message in consumer.messages {
            if received == 0 {
                first = .now
                cpuFirst = processCPUSeconds()
                logger.debug("first message", metadata: ["topic": "\(topic)"])
            }
            received += 1
            if let value = message.value {
                bytes += value.count
                if let byte = value.last { checksum &+= UInt32(byte) }
            }
            try consumer.storeOffset(for: message)
            last = .now
            if received % 10_000 == 0 { logger.trace("consumed", metadata: ["received": "\(received)"]) }
            if received == count { break }
        }

        let cpuSeconds = processCPUSeconds() - cpuFirst
        logger.debug("last message", metadata: ["topic": "\(topic)", "received": "\(received)"])
        consumer.triggerGracefulShutdown()
        try await running.value
        guard received == count else {
            throw BenchmarkError("Swift consumer read \(received) of \(count) messages from \(topic) within \(timeout)")
        }
        return Measurement(messages: received, bytes: bytes, seconds: (last - first).seconds, cpuSeconds: cpuSeconds)
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
