import FeatureGeometry
import FeatureQuerySupport
import Foundation
import Kafka
import SampleFeatureServer
import Synchronization
import Testing

import QueryWorker
import WorkerTestSupport

/// Progress events end to end, through the embedded Kafka cluster and the sample server's slow pages: a
/// request asking for progress over a few slow `next` pages gets throttled events with growing counts, all made
/// before its outcome; a request that did not ask gets none.
@Suite("Worker progress end to end")
struct WorkerProgressEndToEndTests {
    /// Each items page of the states collection waits this long, and the quirk cuts pages to 15 states: four
    /// pages, about 3 s in all, so a 1 s throttle lets two or three events through.
    static let pageLatency = 700

    @Test func eventsWhileSlowPagesArriveAndNoneWithoutProgress() async throws {
        let states = try WorkerHarness.collection(.states)
        let harness = try await WorkerHarness(faults: [
            FaultRule(.latency(milliseconds: Self.pageLatency), pathContains: "/collections/\(states)/items")
        ])
        let events = ProgressEvents()
        let reader = try KafkaPartitionReader(
            client: KafkaClientConfiguration(bootstrapServers: [harness.cluster.bootstrapServers]), logger: WorkerHarness.logger)
        let readerTask = Task { try await reader.run() }
        let topic = harness.settings.topics.progress
        let partitions = try await reader.partitions(of: [topic], timeout: .seconds(10))
        try reader.assign(Dictionary(uniqueKeysWithValues: partitions.map { ($0, Int64(0)) }))
        let collecting = Task {
            for try await message in reader.messages { events.append(message) }
        }

        let landing = harness.server.ogcURL(quirks: ["max-limit-15"])
        try await harness.send("with", WorkerHarness.request(
            "with-1", task: "with", targets: [WorkerHarness.ogcTarget(landing, collection: states)],
            query: #"{"result":"ids"}"#, extra: #","progress":true"#))
        try await harness.send("without", WorkerHarness.request(
            "without-1", task: "without", targets: [WorkerHarness.ogcTarget(landing, collection: states)],
            query: #"{"result":"ids"}"#))
        let outcomes = try await harness.outcomesByRequest(2).compactMapValues(\.first)
        #expect(outcomes["with-1"]?.status == "succeeded")
        #expect(outcomes["without-1"]?.status == "succeeded")

        // The topic read to its end as it is after both outcomes: whatever was published is in hand.
        let ends = try await reader.endOffsets(of: partitions, timeout: .seconds(10))
        #expect(await events.waitUntil { read in ends.allSatisfy { read[$0.key] ?? 0 >= $0.value } })
        collecting.cancel()
        reader.triggerGracefulShutdown()
        _ = try? await readerTask.value

        let messages = events.messages
        #expect(!messages.contains { $0.requestId == "without-1" }, "a request without progress gets no events")
        let with = messages.filter { $0.requestId == "with-1" }
        #expect(with.count >= 2, "\(with.map(\.text))")
        #expect(with.allSatisfy { $0.key == "with" && $0.headerRequestId == "with-1" }, "keyed and headed like outcomes")
        let finishedAt = outcomes["with-1"]?.text("finishedAt").flatMap(RFC3339.milliseconds(from:))
        let collectionURL = WorkerHarness.collectionURL(landing, states)
        var previous: ProgressEvents.Event?
        for event in with {
            #expect(event.kind == "progress" && event.taskId == "with")
            #expect(event.layerURL == collectionURL && event.collection == states)
            if let finishedAt { #expect(event.at <= finishedAt, "made before the outcome") }
            if let previous {
                #expect(event.features >= previous.features && event.pages >= previous.pages)
                // The throttle's interval is 1 s on a monotonic clock; `at` is the wall clock's.
                #expect(event.at - previous.at >= 950, "events \(previous.at) and \(event.at) too close")
            }
            previous = event
        }
        #expect((with.last?.features ?? 0) > (with.first?.features ?? 0), "the counts grow")
        #expect(with.first?.expected == (try harness.dataset.groundTruthObjectIDs(.states)).count, "numberMatched")
        try await harness.stop()
    }
}

/// The progress topic's messages as they are read, with what the test checks of each.
final class ProgressEvents: Sendable {
    struct Event: Sendable {
        var text: String
        var key: String?
        var headerRequestId: String?
        var kind: String?
        var requestId: String?
        var taskId: String?
        var at: Int64
        var layerURL: String?
        var collection: String?
        var pages: Int
        var features: Int
        var expected: Int?
    }

    private let state = Mutex<(events: [Event], next: [KafkaTopicPartition: Int64])>(([], [:]))

    var messages: [Event] { state.withLock { $0.events } }

    func append(_ message: KafkaConsumerMessage) {
        let json = try? ParsedJSON(parsing: message.value ?? [])
        let layer: ParsedJSON? = if case .array(let layers)? = json?["layers"] { layers.first } else { nil }
        func text(_ value: ParsedJSON?) -> String? { if case .string(let text)? = value { text } else { nil } }
        func integer(_ value: ParsedJSON?) -> Int? { if case .number(let number)? = value { Int(exactly: number) } else { nil } }
        let event = Event(
            text: message.valueString ?? "", key: message.keyString,
            headerRequestId: message.headers.first { $0.key == "request-id" }.flatMap { $0.value }.flatMap { String(validating: $0, as: UTF8.self) },
            kind: text(json?["kind"]), requestId: text(json?["requestId"]), taskId: text(json?["taskId"]),
            at: text(json?["at"]).flatMap(RFC3339.milliseconds(from:)) ?? 0, layerURL: text(layer?["url"]),
            collection: text(layer?["collection"]), pages: integer(layer?["pages"]) ?? -1,
            features: integer(layer?["features"]) ?? -1, expected: integer(layer?["expected"]))
        state.withLock {
            $0.events.append(event)
            $0.next[message.topicPartition] = message.offset + 1
        }
    }

    /// Waits (polled, at most 10 s) until `condition` holds for the next offset read of each partition.
    func waitUntil(_ condition: ([KafkaTopicPartition: Int64]) -> Bool) async -> Bool {
        for _ in 0..<200 {
            if state.withLock({ condition($0.next) }) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return state.withLock { condition($0.next) }
    }
}
