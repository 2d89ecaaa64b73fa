import Foundation
import Kafka
import Logging

/// Sends keyed messages through a cluster and reads them back in a consumer group, checking that nothing
/// is lost, duplicated or reordered per key.
struct KafkaRoundTrip {
    struct Report: CustomStringConvertible {
        var sent = 0
        var received = 0
        var duplicates = 0
        var partitions = 0
        var inOrder = true
        var elapsedMs = 0
        var description: String {
            "sent \(sent), received \(received), duplicates \(duplicates), inOrder \(inOrder)"
        }
    }

    let bootstrapServers: String
    let topic: String
    let count: Int
    let logger: Logger

    func run() async throws -> Report {
        let start = ContinuousClock.now
        let client = KafkaClientConfiguration(bootstrapServers: [bootstrapServers], clientID: "query-worker-demo")
        let producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client), logger: logger)
        let consumer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(client: client, groupID: "demo-\(UUID().uuidString)", topics: [topic]),
            logger: logger
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await producer.run() }
            group.addTask { try await consumer.run() }
            defer {
                producer.triggerGracefulShutdown()
                consumer.triggerGracefulShutdown()
            }
            let messages = (0..<count).map { index in
                KafkaProducerMessage(
                    topic: topic, key: "task-\(index % 50)", value: "{\"sequence\":\(index)}",
                    headers: [KafkaHeader(key: "request-id", string: "demo-\(index)")]
                )
            }
            let results = await producer.send(messages)
            var report = Report()
            report.sent = try results.count { _ = try $0.get(); return true }

            var lastSequence: [String: Int] = [:]
            var seen = Set<String>()
            var partitions = Set<Int32>()
            for try await message in consumer.messages {
                guard let key = message.keyString, let id = message.header("request-id")?.stringValue else { continue }
                if !seen.insert(id).inserted { report.duplicates += 1 }
                let sequence = Int(id.dropFirst("demo-".count)) ?? -1
                if let previous = lastSequence[key], previous > sequence { report.inOrder = false }
                lastSequence[key] = sequence
                partitions.insert(message.partition)
                try consumer.storeOffset(for: message)
                report.received += 1
                if report.received + report.duplicates >= report.sent { break }
            }
            report.partitions = partitions.count
            report.elapsedMs = Int((ContinuousClock.now - start).milliseconds)
            return report
        }
    }
}

extension Duration {
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
