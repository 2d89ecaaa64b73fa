import ChildProcessFixture
import Foundation
import Kafka
import Testing
import KafkaTestSupport

/// `query --wait` reads the outcome topics from the time it publishes, not from their beginning: an outcome
/// published earlier under the same requestId (recent enough that the clock-skew allowance would let it
/// through) is never read, and the outcome published after the request is. The test plays the worker.
@Suite struct QueryWaitStartTests {
    @Test func anEarlierOutcomeUnderTheSameRequestIdIsNotReadTheNewOneIs() async throws {
        let executable = try #require(QueryWorkerCommandTests.queryWorker, "query-worker was not built")
        let kafka = try CommandChild.start(
            executable,
            ["embedded-kafka", "--topic", "feature-queries:1", "--topic", "feature-query-results:2",
             "--topic", "feature-query-errors:2", "--log-level", "warning"])
        defer { kafka.terminate() }
        let bootstrap = try #require(kafka.firstLine, "no bootstrap line")
        let client = KafkaClientConfiguration(bootstrapServers: [bootstrap], clientID: "query-wait-tests")
        let producer = try KafkaProducer(configuration: KafkaProducerConfiguration(client: client, linger: .zero), logger: TestSupport.logger)
        let requests = try KafkaPartitionReader(client: client, fetchWaitMax: EmbeddedKafkaCluster.fetchWaitMax, logger: TestSupport.logger)
        let requestId = "reused-\(UUID().uuidString.prefix(8))"

        try await TestSupport.withRunning(producers: [producer]) {
            // A seconds-old outcome of an earlier request that had the same id.
            _ = try await producer.send(Self.outcome(requestId: requestId, status: "superseded", code: "superseded"))
            try requests.assign([KafkaTopicPartition(topic: "feature-queries", partition: 0): KafkaPartitionReader.beginning])

            async let query = CommandOutput.run(
                executable,
                ["query", "--bootstrap-servers", bootstrap, "--wait", "--wait-timeout", "60s", "--request-id", requestId,
                 "--target", "http://127.0.0.1:9/arcgis/rest/services/S/FeatureServer/0"])
            // The worker's part: once the request is there, its outcome.
            let request = try await KafkaPartitionReaderTests.read(requests, count: 1)
            #expect(request.first?.value.map { String(decoding: $0, as: UTF8.self).contains(requestId) } == true)
            _ = try await producer.send(Self.outcome(requestId: requestId, status: "cancelled", code: "cancel_requested"))

            let output = try await query
            #expect(output.status == 2, "an error outcome: \(output)")
            #expect(output.stdout.contains("cancelled  request \(requestId)"), "the new outcome: \(output)")
            #expect(!output.stdout.contains("superseded"), "the earlier outcome was read: \(output)")
        }
    }

    /// An error outcome as the worker publishes it, with the `request-id` header.
    static func outcome(requestId: String, status: String, code: String) -> KafkaProducerMessage {
        let now = ISO8601DateFormatter().string(from: Date())
        let value = #"{"requestId":"\#(requestId)","taskId":"\#(requestId)","status":"\#(status)","#
            + #""error":{"code":"\#(code)","message":"test outcome","retryable":false},"#
            + #""worker":"test","receivedAt":"\#(now)","finishedAt":"\#(now)"}"#
        return KafkaProducerMessage(
            topic: "feature-query-errors", key: requestId, value: value, headers: [KafkaHeader(key: "request-id", string: requestId)])
    }
}
