import FeatureGeometry
import Kafka
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// Outcomes the cluster does not take at first: nothing is lost, nothing is answered twice.
@Suite("Worker outcome delivery failures end to end")
struct WorkerDeliveryTests {
    /// In the exactly-once mode the refusal aborts the transaction, and the next one carries the `failed`
    /// outcome in the result's place.
    @Test(arguments: [false, true])
    func aResultTheClusterRefusesAsTooLargeIsAnsweredFailed(exactlyOnce: Bool) async throws {
        let harness = try await WorkerHarness { $0.exactlyOnce.enabled = exactlyOnce }
        // The request itself is delivered first; the next Produce request is the worker's result.
        try await harness.send("big", WorkerHarness.request("big", url: harness.url(.states)))
        harness.cluster.pushRequestErrors(.produce, [.messageTooLarge])
        let outcomes = try await harness.outcomesByRequest(1)
        #expect(outcomes["big"]?.count == 1)
        #expect(outcomes["big"]?.first?.status == "failed")
        #expect(outcomes["big"]?.first?.errorCode == "result_too_large")
        try await harness.stop()
    }

    /// A result larger than the producer's `message.max.bytes` (a setting below the result parts' size) is
    /// refused as it is queued: answered `failed` (`result_too_large`) instead, in either delivery mode (in the
    /// exactly-once mode the error takes the result's place in the transaction; the stock embedded cluster runs
    /// the transactions' requests, which is all this needs).
    @Test(arguments: [false, true])
    func aResultTooLargeForTheProducerIsAnsweredFailed(exactlyOnce: Bool) async throws {
        let harness = try await WorkerHarness { settings in
            settings.exactlyOnce.enabled = exactlyOnce
            settings.kafkaProperties["message.max.bytes"] = "2000"
        }
        try await harness.send("features", WorkerHarness.request("features", url: harness.url(.states), query: #"{"result":"features"}"#))
        try await harness.send("count", WorkerHarness.request("count", url: harness.url(.states), query: #"{"result":"count"}"#))
        let outcomes = try await harness.outcomesByRequest(2)
        #expect(outcomes["features"]?.count == 1)
        #expect(outcomes["features"]?.first?.status == "failed")
        #expect(outcomes["features"]?.first?.errorCode == "result_too_large")
        #expect(outcomes["count"]?.first?.status == "succeeded", "a small result still goes")
        try await harness.stop()
    }

    @Test func anOutcomeThatCannotBeDeliveredIsSentAgainUntilItIs() async throws {
        let harness = try await WorkerHarness { settings in
            // librdkafka gives up on a message after a second; the worker's own retry is what delivers it.
            settings.kafkaProperties["message.timeout.ms"] = "1000"
        }
        // Held at the server until the errors are queued, so that the result is the next Produce request.
        harness.server.setFaults([FaultRule(.latency(milliseconds: 500), pathContains: "MapServer/2/query")])
        try await harness.send("r", WorkerHarness.request("r", url: harness.url(.states)))
        // Twenty retriable errors take librdkafka (100 ms between tries) past its one-second message timeout,
        // so the first delivery fails for certain.
        harness.cluster.pushRequestErrors(.produce, Array(repeating: .notEnoughReplicas, count: 20))
        let outcomes = try await harness.outcomesByRequest(1)
        #expect(outcomes["r"]?.count == 1)
        #expect(outcomes["r"]?.first?.status == "succeeded")
        // A second request still goes through: the partition is not stuck behind the first.
        try await harness.send("r2", WorkerHarness.request("r2", url: harness.url(.states)))
        let second = try await harness.outcomesByRequest(1)
        #expect(second["r2"]?.first?.status == "succeeded")
        try await harness.stop()
    }
}
