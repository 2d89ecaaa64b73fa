import FeatureService
import Synchronization
import Testing

@testable import QueryWorker

/// The reporter with a hand-driven clock and a publisher that records: the counts per layer, one event per
/// request on the run, and none after `finish`.
@Suite struct ProgressReporterTests {
    final class Recorder: Sendable {
        let events = Mutex<[ProgressEvent]>([])
        let now = Mutex<Int64>(0)
    }

    static func reporter(_ recorder: Recorder, askers: [(String, String)] = [("r-1", "t")]) -> ProgressReporter {
        ProgressReporter(
            intervalMs: 1_000, worker: "w", askers: { askers.map { (requestId: $0.0, taskId: $0.1) } },
            publish: { events in recorder.events.withLock { $0 += events } },
            monotonicMs: { recorder.now.withLock { $0 } }, wallMs: { 1_748_779_200_000 + recorder.now.withLock { $0 } })
    }

    @Test func countsPagesAndFeaturesPerLayerAndTellsEveryAsker() {
        let recorder = Recorder()
        let reporter = Self.reporter(recorder, askers: [("r-1", "t"), ("r-2", "t")])
        let a = ProgressLayer(url: "https://h.example/a/FeatureServer/0", layerId: 0)
        let b = ProgressLayer(url: "https://h.example/ogc/collections/c", collection: "c")
        reporter.pageRead(a, features: 2_000, expected: 5_000)
        recorder.now.withLock { $0 = 400 }
        reporter.pageRead(b, features: 10, expected: nil)
        reporter.pageRead(a, features: 2_000, expected: nil)
        reporter.layerFinished(b)
        let first = recorder.events.withLock { $0 }
        #expect(first.map(\.requestId) == ["r-1", "r-2"], "one event per asker, the first page at once")
        #expect(first.first?.layers.first?.features == 2_000)
        #expect(reporter.layers.map(\.pages) == [2, 1])
        #expect(reporter.layers.map(\.features) == [4_000, 10])
        #expect(reporter.layers.map(\.expected) == [5_000, nil], "a page without a total keeps the one known")
        #expect(reporter.layers.map(\.done) == [false, true])
        #expect(reporter.layers.map(\.layerId) == [0, nil])
        #expect(reporter.layers.map(\.collection) == [nil, "c"])
        reporter.finish()
        recorder.now.withLock { $0 = 5_000 }
        reporter.pageRead(a, features: 1, expected: nil)
        #expect(recorder.events.withLock { $0.count } == 2, "nothing after finish")
    }

    @Test func aScheduledEventCarriesTheNewestCounts() async throws {
        let recorder = Recorder()
        let reporter = ProgressReporter(
            intervalMs: 50, worker: "w", askers: { [(requestId: "r", taskId: "t")] },
            publish: { events in recorder.events.withLock { $0 += events } })
        let layer = ProgressLayer(url: "https://h.example/a/FeatureServer/0", layerId: 0)
        reporter.pageRead(layer, features: 1, expected: nil)
        reporter.pageRead(layer, features: 1, expected: nil)
        reporter.pageRead(layer, features: 1, expected: nil)
        // Waits for the timer's event (no fixed sleep: polled, bounded).
        for _ in 0..<200 where recorder.events.withLock({ $0.count }) < 2 {
            try await Task.sleep(for: .milliseconds(10))
        }
        let events = recorder.events.withLock { $0 }
        #expect(events.map { $0.layers.first?.features } == [1, 3])
        #expect(events.count == 2 && events[1].elapsedMs >= 50)
        reporter.finish()
    }
}
