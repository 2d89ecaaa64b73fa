import Foundation
package import Kafka
package import Logging
import Synchronization
package import Testing

/// Shared pieces of the Kafka tests: a logger, unique names, and clients bound to an embedded cluster.
package enum TestSupport {
    package static let logger: Logger = {
        var logger = Logger(label: "kafka-tests") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = ProcessInfo.processInfo.environment["KAFKA_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return logger
    }()

    package static func uniqueName(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    package static func client(_ cluster: EmbeddedKafkaCluster, id: String = "kafka-tests") -> KafkaClientConfiguration {
        KafkaClientConfiguration(bootstrapServers: [cluster.bootstrapServers], clientID: id)
    }

    package static func consumerConfiguration(
        _ cluster: EmbeddedKafkaCluster,
        group: String,
        topic: String
    ) -> KafkaConsumerConfiguration {
        KafkaConsumerConfiguration(
            client: client(cluster),
            groupID: group,
            topics: [topic],
            sessionTimeout: .seconds(6),
            heartbeatInterval: .milliseconds(500),
            autoCommitInterval: .milliseconds(200),
            revokeTimeout: .seconds(5)
        )
    }

    package static func consumer(
        _ cluster: EmbeddedKafkaCluster,
        group: String = uniqueName("g"),
        topic: String,
        rebalanceHandler: @escaping @Sendable (KafkaRebalanceEvent) async -> Void = { _ in }
    ) throws -> KafkaConsumer {
        try KafkaConsumer(
            configuration: consumerConfiguration(cluster, group: group, topic: topic),
            logger: logger,
            rebalanceHandler: rebalanceHandler
        )
    }

    /// Sends messages and fails the test on the first that was not delivered.
    @discardableResult
    package static func sendAll(_ producer: KafkaProducer, _ messages: [KafkaProducerMessage]) async throws -> [KafkaDeliveryReport] {
        try await producer.send(messages).map { try $0.get() }
    }

    package static func producer(_ cluster: EmbeddedKafkaCluster, linger: Duration = .milliseconds(5)) throws -> KafkaProducer {
        try KafkaProducer(configuration: KafkaProducerConfiguration(client: client(cluster), linger: linger), logger: logger)
    }

    /// Reads until `count` messages arrived or the time is up.
    package static func read(
        _ consumer: KafkaConsumer,
        count: Int,
        within limit: Duration = .seconds(60),
        storeOffsets: Bool = true
    ) async throws -> [KafkaConsumerMessage] {
        try await withThrowingTaskGroup(of: [KafkaConsumerMessage].self) { group in
            group.addTask {
                var received: [KafkaConsumerMessage] = []
                for try await message in consumer.messages {
                    received.append(message)
                    if storeOffsets { try consumer.storeOffset(for: message) }
                    if received.count >= count { break }
                }
                return received
            }
            group.addTask {
                try await Task.sleep(for: limit)
                throw TestTimeout(what: "reading \(count) messages", limit: limit)
            }
            let first = try await group.next() ?? []
            group.cancelAll()
            return first
        }
    }

    /// Runs `body` with services running in the background, stopping them when it returns.
    package static func withRunning<T: Sendable>(
        _ consumers: [KafkaConsumer] = [],
        producers: [KafkaProducer] = [],
        _ body: () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for consumer in consumers { group.addTask { try await consumer.run() } }
            for producer in producers { group.addTask { try await producer.run() } }
            do {
                let result = try await body()
                consumers.forEach { $0.triggerGracefulShutdown() }
                producers.forEach { $0.triggerGracefulShutdown() }
                try await group.waitForAll()
                return result
            } catch {
                consumers.forEach { $0.triggerGracefulShutdown() }
                producers.forEach { $0.triggerGracefulShutdown() }
                try? await group.waitForAll()
                throw error
            }
        }
    }
}

/// Polls a condition until it holds or the time is up.
package func eventually(
    within limit: Duration = .seconds(30),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("condition not met within \(limit)", sourceLocation: sourceLocation)
    throw TestTimeout(what: "condition", limit: limit)
}

package struct TestTimeout: Error, CustomStringConvertible {
    package let what: String
    package let limit: Duration

    package init(what: String, limit: Duration) {
        self.what = what
        self.limit = limit
    }
    package var description: String { "timed out after \(limit): \(what)" }
}

/// A lock-protected value that closures running in other tasks can share.
package final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    package init(_ value: Value) { mutex = Mutex(value) }
    package func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}
